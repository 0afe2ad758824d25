/**
 * Job payloads, one zod schema per queue (STYLE rule 2): the API builds `job.data` from them and
 * the worker parses `job.data` with the same schema once, before doing any work.
 */
import { z } from "zod";
import { LANGUAGES, LIMITS, PERSONA_IDS } from "../constants";
import type { ChargedQueueName } from "../queues";
import { chargedJobBaseSchema, type ChargedJobBase } from "./charged-job";
import { imageJobSchema } from "./images";
import { smsReplyJobSchema } from "./sms-integration";
import { videoJobSchema } from "./videos";

export { chargedJobBaseSchema, type ChargedJobBase } from "./charged-job";

export const chatTurnSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().max(LIMITS.chatMessageChars * 2),
});
/** One earlier message of a conversation, oldest first, as jobs and providers pass it. */
export type ChatTurn = z.infer<typeof chatTurnSchema>;

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

/** Queue → payload schema: what `acceptJob` builds and what the worker parses. */
export const jobSchemas = {
  chat: chatJobSchema,
  image: imageJobSchema,
  video: videoJobSchema,
  "sms-reply": smsReplyJobSchema,
} as const satisfies { [Q in ChargedQueueName]: z.ZodType };
export type JobSchemas = typeof jobSchemas;

/** The parsed payload of a job on queue Q. */
export type JobData<Q extends ChargedQueueName> = z.infer<JobSchemas[Q]>;

/**
 * Queues paid by a hold taken when the job is accepted (their payload carries the hold's key).
 * "sms-reply" is not one: the webhook adds it and the worker debits the reply itself.
 */
export type HeldQueueName = {
  [Q in ChargedQueueName]: JobData<Q> extends ChargedJobBase ? Q : never;
}[ChargedQueueName];

/** What the caller of acceptJob gives for queue Q: the payload without the hold's own fields. */
export type JobPayload<Q extends HeldQueueName> = Omit<z.input<JobSchemas[Q]>, keyof ChargedJobBase>;

/** Return value of a chat job: the cleaned reply also sent in the HTTP answer. */
export const chatJobResultSchema = z.object({ reply: z.string() });
export type ChatJobResult = z.infer<typeof chatJobResultSchema>;
