/**
 * Job payloads, one zod schema per queue (STYLE rule 2): the API builds `job.data` from them and
 * the worker parses `job.data` with the same schema once, before doing any work.
 */
import { z } from "zod";
import { LANGUAGES, LIMITS, PERSONA_IDS } from "../constants";
import type { ChargedQueueName } from "../queues";
import { chargedJobBaseSchema, type ChargedJobBase } from "./charged-job";
import { imageJobResultSchema, imageJobSchema } from "./images";
import { smsQueueJobSchema, smsReplyJobResultSchema } from "./sms-integration";
import { videoJobResultSchema, videoJobSchema } from "./videos";

export { chargedJobBaseSchema, type ChargedJobBase } from "./charged-job";

export const chatTurnSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().max(LIMITS.chatMessageChars * 2),
});
/** One earlier message of a conversation, oldest first, as jobs and providers pass it. */
export type ChatTurn = z.infer<typeof chatTurnSchema>;
type Turn = ChatTurn;

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

/** Return value of a chat job: the cleaned reply also sent in the HTTP answer. */
export const chatJobResultSchema = z.object({ reply: z.string() });
export type ChatJobResult = z.infer<typeof chatJobResultSchema>;

/** Queue → payload schema: what `acceptJob` builds and what the worker parses. */
export const jobSchemas = {
  chat: chatJobSchema,
  image: imageJobSchema,
  video: videoJobSchema,
  "sms-reply": smsQueueJobSchema,
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

/** Every held queue once (the compiler holds this to HeldQueueName), for telling one from a name read at run time. */
const HELD_QUEUES: { readonly [Q in HeldQueueName]: true } = { chat: true, image: true, video: true };

/** Whether a queue name read at run time (a stored hold's `queue`) is a held queue this code knows. */
export function isHeldQueue(name: string | null | undefined): name is HeldQueueName {
  return typeof name === "string" && Object.hasOwn(HELD_QUEUES, name);
}

/** What the caller of acceptJob gives for queue Q: the payload without the hold's own fields. */
export type JobPayload<Q extends HeldQueueName> = Omit<z.input<JobSchemas[Q]>, keyof ChargedJobBase>;

/**
 * Queue → result schema: what the worker returns (parsed before the hold is settled), what the
 * "job:completed" push carries and what the API parses where it reads a result (STYLE rule 2).
 */
export const jobResults = {
  chat: chatJobResultSchema,
  image: imageJobResultSchema,
  video: videoJobResultSchema,
  "sms-reply": smsReplyJobResultSchema,
} as const satisfies { [Q in ChargedQueueName]: z.ZodType };
type JobResults = typeof jobResults;

/** The parsed result of a job on queue Q. */
export type JobResult<Q extends ChargedQueueName> = z.output<JobResults[Q]>;
/** What a handler of queue Q returns, before the result schema parses it. */
export type JobResultInput<Q extends ChargedQueueName> = z.input<JobResults[Q]>;

/** The "job:completed" push of queue Q: its result typed by the queue. */
export type JobCompletedOf<Q extends HeldQueueName> = {
  [K in HeldQueueName]: { jobId: string; queue: K; result: JobResult<K> };
}[Q];
/** The "job:completed" push, one shape per held queue (the sms-reply queue pushes none), told apart by `queue`. */
export type JobCompleted = JobCompletedOf<HeldQueueName>;
