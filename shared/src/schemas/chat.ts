import { z } from "zod";
import { LIMITS, PERSONA_IDS } from "../constants";
import { clientUserIdSchema, languageSchema } from "./common";
import { CONTEXT_LIMITS, fitContext } from "./jobs";

/**
 * One earlier message as the screens send it: {type: "user"|"ai", content} (conversation
 * messages) or {role: "user"|"assistant", content}.
 */
const historyItemSchema = z
  .object({
    role: z.enum(["user", "assistant"]).optional(),
    type: z.enum(["user", "ai", "assistant"]).optional(),
    content: z.string().max(LIMITS.chatMessageChars * 2, "conversationHistory: a message is too long"),
  })
  .transform((m) => ({
    role: m.role ?? (m.type === "user" ? ("user" as const) : ("assistant" as const)),
    content: m.content,
  }));

/** POST textai/chat.php (SPEC §7); avatarType "doctor" is the Doctor chat. */
export const chatRequestSchema = z
  .object({
    message: z.string({ error: "message is required" }).trim().min(1, "message is required"),
    userId: clientUserIdSchema.optional(),
    conversationId: z
      .union([z.string().max(100), z.number().int()])
      .nullish()
      .transform((v) => (v == null || v === "" ? null : String(v))),
    avatarType: z.enum(PERSONA_IDS, { error: `avatarType must be one of ${PERSONA_IDS.join(", ")}` }).default("general"),
    conversationHistory: z
      .array(historyItemSchema)
      .max(200, "conversationHistory: at most 200 messages")
      .default([])
      .describe(
        `Earlier messages, oldest first. Not priced: the server keeps only the newest ${CONTEXT_LIMITS.chat.turns} ` +
          `(at most ${CONTEXT_LIMITS.chat.chars} characters together, the oldest kept one cut to fit) and sends exactly those to the AI.`,
      ),
    language: languageSchema.default("en"),
  })
  .superRefine((v, ctx) => {
    const max = v.avatarType === "doctor" ? LIMITS.doctorMessageChars : LIMITS.chatMessageChars;
    if (v.message.length > max)
      ctx.addIssue({ code: "custom", path: ["message"], message: `message must be at most ${max} characters` });
  })
  .transform((v) => ({
    ...v,
    conversationHistory: fitContext(v.conversationHistory, CONTEXT_LIMITS.chat),
  }));
export type ChatRequest = z.infer<typeof chatRequestSchema>;

export const chatResponseSchema = z.object({
  success: z.literal(true),
  /** The reply, cleaned of markdown (SPEC §9). */
  message: z.string(),
  jobId: z.string(),
  tokensUsed: z.number().int(),
  remainingCoins: z.number().int(),
});
export type ChatResponse = z.infer<typeof chatResponseSchema>;
