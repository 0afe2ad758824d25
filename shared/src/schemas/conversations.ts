import { z } from "zod";
import { PERSONA_IDS } from "../constants";
import { clientUserIdSchema } from "./common";

/** Our ids (24 hex) or the Doctor screen's own "conv_..." ids. */
export const conversationIdSchema = z
  .union([z.string().trim().min(1).max(100), z.number().int().nonnegative()])
  .transform(String)
  .pipe(z.string().regex(/^[\w.-]{1,100}$/u, "conversationId is not a valid id"));

export const MAX_CONVERSATION_MESSAGES = 500;
/** Room for long AI replies; a user message is bounded by the chat call itself. */
export const MAX_CONVERSATION_MESSAGE_CHARS = 20_000;

export const conversationMessageSchema = z.object({
  type: z.enum(["user", "ai"], { error: 'messages: type must be "user" or "ai"' }),
  content: z
    .string()
    .max(MAX_CONVERSATION_MESSAGE_CHARS, `messages: content must be at most ${MAX_CONVERSATION_MESSAGE_CHARS} characters`),
  timestamp: z.iso.datetime({ offset: true, error: "messages: timestamp must be an ISO date" }).optional(),
  /** The Doctor screen's client id of the message. */
  id: z
    .union([z.string().max(100), z.number()])
    .transform(String)
    .optional(),
});
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;

export const conversationListQuerySchema = z.object({
  userId: clientUserIdSchema.optional(),
  /** Only the Doctor's conversations, or only the text chat's; all when absent. */
  kind: z.enum(["doctor", "text"]).optional(),
});

export const conversationLoadQuerySchema = z.object({
  conversationId: conversationIdSchema,
  userId: clientUserIdSchema.optional(),
});

/** POST conversations/save.php: conversationId "new" creates one. */
export const conversationSaveRequestSchema = z.object({
  userId: clientUserIdSchema.optional(),
  conversationId: conversationIdSchema.default("new"),
  title: z.string().trim().max(200, "title must be at most 200 characters").optional(),
  messages: z
    .array(conversationMessageSchema)
    .max(MAX_CONVERSATION_MESSAGES, `messages: at most ${MAX_CONVERSATION_MESSAGES} messages`)
    .default([]),
  /** Persona of the conversation; "doctor" makes it a Doctor conversation. */
  avatarType: z.enum(PERSONA_IDS).optional(),
  /**
   * Chat jobs (the `jobId` of chat answers) asked before the conversation had an id: their charges
   * are filed under it, so its cost counts the first message too.
   */
  jobIds: z
    .array(z.string().regex(/^[\w:.-]{1,200}$/u, "jobIds: not a job id"), { error: "jobIds must be a list" })
    .max(20, "jobIds: at most 20")
    .default([]),
});
export type ConversationSaveRequest = z.infer<typeof conversationSaveRequestSchema>;

export const conversationDeleteRequestSchema = z.object({
  conversationId: conversationIdSchema,
  userId: clientUserIdSchema.optional(),
});

export const conversationSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Doctor list fields (SPEC §3). */
  lastMessage: z.string(),
  timestamp: z.string(),
  type: z.literal("text"),
  avatarType: z.enum(PERSONA_IDS),
  messageCount: z.number().int(),
  /** Coins the conversation has cost so far, from the ledger (charges less refunds). */
  coinsSpent: z.number().int().nonnegative(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const conversationListResponseSchema = z.object({
  success: z.literal(true),
  conversations: z.array(conversationSummarySchema),
});
export type ConversationListResponse = z.infer<typeof conversationListResponseSchema>;

export const conversationLoadResponseSchema = z.object({
  success: z.literal(true),
  conversation: conversationSummarySchema.extend({ messages: z.array(conversationMessageSchema) }),
  messages: z.array(conversationMessageSchema),
});
export type ConversationLoadResponse = z.infer<typeof conversationLoadResponseSchema>;

export const conversationSaveResponseSchema = z.object({
  success: z.literal(true),
  conversationId: z.string(),
  conversation: conversationSummarySchema,
});
export type ConversationSaveResponse = z.infer<typeof conversationSaveResponseSchema>;
