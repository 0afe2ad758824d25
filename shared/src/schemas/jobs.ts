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
type Turn = z.infer<typeof chatTurnSchema>;

/**
 * Earlier turns the AI provider gets with a message, at most. A call is priced on its own message
 * (SPEC §9), so the context is capped instead of priced: one coin never buys more than this.
 */
export const CONTEXT_LIMITS = {
  /** Text chat and Doctor. */
  chat: { turns: 20, chars: 6000 },
  /** SMS AI: the last 10 messages (SPEC §9), a few SMS worth of text. */
  sms: { turns: LIMITS.smsBackendContext, chars: 2000 },
} as const;
export type ContextLimits = (typeof CONTEXT_LIMITS)[keyof typeof CONTEXT_LIMITS];

/**
 * The newest non-blank turns within the limits, oldest first. The oldest turn kept is cut to the
 * characters left (its end, next to the newer turns); older ones are dropped.
 */
export function fitContext(turns: readonly Turn[], limits: ContextLimits): Turn[] {
  const kept: Turn[] = [];
  let left = limits.chars;
  for (let i = turns.length - 1; i >= 0 && kept.length < limits.turns && left > 0; i--) {
    const turn = turns[i]!;
    if (!turn.content.trim()) continue;
    const content = turn.content.length > left ? turn.content.slice(-left) : turn.content;
    kept.unshift({ role: turn.role, content });
    left -= content.length;
  }
  return kept;
}

const contextChars = (turns: readonly Turn[]) => turns.reduce((sum, t) => sum + t.content.length, 0);

/** Text chat and Doctor (avatarType "doctor") on the "chat" queue. */
export const chatJobSchema = chargedJobBaseSchema
  .extend({
    message: z.string().min(1).max(LIMITS.chatMessageChars),
    persona: z.enum(PERSONA_IDS),
    language: z.enum(LANGUAGES),
    conversationId: z.string().max(100).nullable(),
    /** Sent to the provider as it is: the API fitted it to CONTEXT_LIMITS, and a payload beyond them is refused. */
    history: z.array(chatTurnSchema).max(CONTEXT_LIMITS.chat.turns),
    /** "sms": the SMS AI screen; the worker adds the SMS instruction and cuts the reply to SMS size. */
    channel: z.enum(["chat", "sms"]).optional(),
  })
  .superRefine((v, ctx) => {
    const limits = CONTEXT_LIMITS[v.channel ?? "chat"];
    if (v.history.length > limits.turns || contextChars(v.history) > limits.chars)
      ctx.addIssue({ code: "custom", path: ["history"], message: "history is larger than CONTEXT_LIMITS" });
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
