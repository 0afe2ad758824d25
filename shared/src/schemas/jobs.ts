/**
 * Job payloads, one zod schema per queue (STYLE rule 2): the API builds `job.data` from them and
 * workers re-parse `job.data` with them before doing any work.
 */
import { z } from "zod";
import { LANGUAGES, LIMITS, PERSONA_IDS } from "../constants";
import type { ChargedQueueName } from "../queues";

/** What every charged job carries besides its own payload. */
export const chargedJobBaseSchema = z.object({
  userId: z.string().regex(/^[a-f0-9]{24}$/u, "userId must be a 24-character hex id"),
  /** Ledger key of the hold that pays for this job; settled on success, released on final failure. */
  holdKey: z.string().min(1).max(300),
  /** The HTTP request that accepted the job, carried into the worker's logs. */
  requestId: z.string().max(100).optional(),
});
export type ChargedJobBase = z.infer<typeof chargedJobBaseSchema>;

export const chatTurnSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().max(LIMITS.chatMessageChars * 2),
});

/** Text chat and Doctor (avatarType "doctor") on the "chat" queue. */
export const chatJobSchema = chargedJobBaseSchema.extend({
  message: z.string().min(1).max(LIMITS.chatMessageChars),
  persona: z.enum(PERSONA_IDS),
  language: z.enum(LANGUAGES),
  conversationId: z.string().max(100).nullable(),
  history: z.array(chatTurnSchema).max(50),
  /** "sms": the SMS AI screen; the worker adds the SMS instruction and cuts the reply to SMS size. */
  channel: z.enum(["chat", "sms"]).optional(),
});
export type ChatJobData = z.infer<typeof chatJobSchema>;

/**
 * Queue → payload schema. Queues whose owners have not narrowed theirs yet accept the base
 * fields plus anything else (a loose object), so nothing is dropped on re-parse.
 */
export const jobSchemas: { [Q in ChargedQueueName]: z.ZodType<ChargedJobBase & Record<string, unknown>> } = {
  chat: chatJobSchema,
  image: z.looseObject(chargedJobBaseSchema.shape),
  video: z.looseObject(chargedJobBaseSchema.shape),
  "sms-reply": z.looseObject(chargedJobBaseSchema.shape),
};

/** Return value of a chat job: the cleaned reply also sent in the HTTP answer. */
export const chatJobResultSchema = z.object({ reply: z.string() });
export type ChatJobResult = z.infer<typeof chatJobResultSchema>;
