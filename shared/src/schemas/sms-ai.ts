/**
 * The SMS AI screen's three server calls (SPEC §7 and its notes): the backend AI reply
 * (sms/ai-response.php), the server SMS history (sms/conversations.php) and the learned-response
 * lookup (sms/learned-response.php), plus the SMS sizing rules the chat worker applies.
 */
import { z } from "zod";
import { LIMITS, type Language } from "../constants";
import { clientUserIdSchema, languageSchema } from "./common";
import { CONTEXT_LIMITS, fitContext } from "./jobs";

/** Longest SMS the screen lets a user type, and the longest reply sent back (SPEC §9). */
export function smsCharLimit(language: Language): number {
  return language === "ar" ? LIMITS.smsCharsArabic : LIMITS.smsCharsEnglish;
}

/** The persona's system prompt with the SMS instruction the chat worker adds for SMS replies. */
export function smsSystemPrompt(personaPrompt: string, language: Language): string {
  return `${personaPrompt} You are answering by SMS: plain text, at most ${smsCharLimit(language)} characters.`;
}

/** Cuts a reply to SMS size at a word boundary when one is near, marking the cut with "...". */
export function limitSmsReply(text: string, language: Language): string {
  const max = smsCharLimit(language);
  const chars = Array.from(text.trim());
  if (chars.length <= max) return chars.join("");
  const cut = chars.slice(0, max - 3).join("");
  const atSpace = cut.replace(/\s+\S*$/u, "");
  return `${Array.from(atSpace).length > max / 2 ? atSpace : cut}...`;
}

/** Sender or recipient as the screen's configuration panel has them (a sender id or a number). */
const smsPartySchema = z.string().trim().max(32, "must be at most 32 characters");

const smsHistoryItemSchema = z
  .object({
    role: z.enum(["user", "assistant"], { error: "role must be user or assistant" }),
    /** SPEC §7 sends role/content; the stored SMS messages call it `message`, also accepted. */
    content: z
      .string()
      .max(LIMITS.smsCharsEnglish * 4, "a message is too long")
      .optional(),
    message: z
      .string()
      .max(LIMITS.smsCharsEnglish * 4, "a message is too long")
      .optional(),
  })
  .transform((m) => ({ role: m.role, content: (m.content ?? m.message ?? "").trim() }));

/** POST sms/ai-response.php: the message, the last 10 history entries as role/content, the language. */
export const smsAiRequestSchema = z
  .object({
    message: z.string({ error: "message is required" }).trim().min(1, "message is required"),
    userId: clientUserIdSchema.optional(),
    conversationHistory: z
      .array(smsHistoryItemSchema)
      .max(200, "conversationHistory: at most 200 messages")
      .default([])
      .describe(
        `Earlier messages, oldest first. Not priced: the server keeps only the newest ${CONTEXT_LIMITS.sms.turns} ` +
          `(at most ${CONTEXT_LIMITS.sms.chars} characters together, the oldest kept one cut to fit) and sends exactly those to the AI.`,
      ),
    language: languageSchema.default("en"),
    sender: smsPartySchema.optional(),
    recipient: smsPartySchema.optional(),
  })
  .superRefine((v, ctx) => {
    const max = smsCharLimit(v.language);
    if (Array.from(v.message).length > max) {
      ctx.addIssue({ code: "custom", path: ["message"], message: `message must be at most ${max} characters` });
    }
  })
  .transform((v) => ({
    ...v,
    // The backend context is the last 10 messages (SPEC §9), whatever the client sends, and capped in size.
    conversationHistory: fitContext(v.conversationHistory, CONTEXT_LIMITS.sms),
  }));
export type SmsAiRequest = z.infer<typeof smsAiRequestSchema>;
/** The ai-response call's body as a client sends it. */
export type SmsAiRequestBody = z.input<typeof smsAiRequestSchema>;

export const smsAiResponseSchema = z.object({
  success: z.literal(true),
  /** The AI reply, cleaned of markdown and cut to SMS size. */
  response: z.string(),
  jobId: z.string(),
  /** Coins charged: the SMS segments of the user's message. */
  tokensUsed: z.number().int(),
  remainingCoins: z.number().int(),
});
export type SmsAiResponse = z.infer<typeof smsAiResponseSchema>;

/** One SMS of the server history (SPEC §3 "SMS conversation message"). */
export const smsAiMessageSchema = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  message: z.string(),
  timestamp: z.string(),
  sender: z.string(),
  recipient: z.string(),
  language: languageSchema,
});
export type SmsAiMessage = z.infer<typeof smsAiMessageSchema>;

/** GET sms/conversations.php?userId=: the caller's own server SMS history. */
export const smsConversationsQuerySchema = z.object({
  userId: clientUserIdSchema.optional(),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be an integer")
    .min(1, "limit must be at least 1")
    .max(500, "limit must be at most 500")
    .default(100),
});
export type SmsConversationsQuery = z.infer<typeof smsConversationsQuerySchema>;

/** Messages grouped by the pair of parties they went between (the screen's sender and recipient). */
export const smsConversationSchema = z.object({
  sender: z.string(),
  recipient: z.string(),
  lastMessage: z.string(),
  timestamp: z.string(),
  messages: z.array(smsAiMessageSchema),
});

export const smsConversationsResponseSchema = z.object({
  success: z.literal(true),
  /** The last `limit` messages, oldest first. */
  messages: z.array(smsAiMessageSchema),
  conversations: z.array(smsConversationSchema),
});
export type SmsConversationsResponse = z.infer<typeof smsConversationsResponseSchema>;

/** POST sms/learned-response.php: an earlier AI answer to the same normalised message. */
export const smsLearnedResponseRequestSchema = z.object({
  message: z.string({ error: "message is required" }).trim().min(1, "message is required").max(2000, "message is too long"),
  userId: clientUserIdSchema.optional(),
  language: languageSchema.default("en"),
});
export type SmsLearnedResponseRequest = z.infer<typeof smsLearnedResponseRequestSchema>;
/** The learned-response call's body as a client sends it. */
export type SmsLearnedResponseRequestBody = z.input<typeof smsLearnedResponseRequestSchema>;

export const smsLearnedResponseResponseSchema = z.object({
  success: z.literal(true),
  /** The learned answer, or null when none was learned for this message yet. */
  response: z.string().nullable(),
  found: z.boolean(),
});
export type SmsLearnedResponseResponse = z.infer<typeof smsLearnedResponseResponseSchema>;
