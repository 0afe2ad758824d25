import type { z } from "zod";
import {
  conversationLoadResponseSchema,
  type conversationDeleteRequestSchema,
  type ConversationListResponse,
  type conversationSaveRequestSchema,
  type ConversationSaveResponse,
  type ConversationSummary as StoredSummary,
} from "@storefront/shared";
import { get, post } from "./client";
import type { ChatMessage } from "./chat";

/** A list entry; the Doctor screen adds one optimistically with only what it knows. */
export type ConversationSummary = Pick<StoredSummary, "id" | "title"> & Partial<Omit<StoredSummary, "id" | "title">>;

/** `kind` keeps the Doctor's consultations apart from the persona chats. */
export async function listConversations(userId: string, kind?: "text" | "doctor"): Promise<ConversationSummary[]> {
  const res = await get<ConversationListResponse>("conversations/list.php", { userId, kind });
  return res.conversations;
}

/** The stored messages, parsed: a thread with a malformed message is refused rather than half shown. */
export async function loadConversation(conversationId: string, userId: string): Promise<ChatMessage[]> {
  const parsed = conversationLoadResponseSchema.safeParse(
    await get<unknown>("conversations/load.php", { conversationId, userId }),
  );
  if (!parsed.success) throw new Error("Invalid response from server");
  return parsed.data.messages.map((m) => ({ ...m, timestamp: m.timestamp ?? "" }));
}

type SaveRequest = z.input<typeof conversationSaveRequestSchema>;

/**
 * conversations/save.php's body (shared conversationSaveRequestSchema) as the screens give it:
 * conversationId "new" when the thread has no id yet; avatarType "doctor" files it under the
 * Doctor's consultations; jobIds are the chat jobs asked before it had an id.
 */
export type SaveConversation = Required<Pick<SaveRequest, "userId" | "conversationId" | "title">> &
  Pick<SaveRequest, "avatarType" | "jobIds"> & { messages: ChatMessage[] };

/** Returns the id the server keeps the conversation under. */
export async function saveConversation(body: SaveConversation): Promise<string> {
  const res = await post<ConversationSaveResponse>("conversations/save.php", {
    ...body,
    messages: body.messages.map(({ type, content, timestamp, id }) => ({ type, content, timestamp, ...(id ? { id } : {}) })),
  } satisfies SaveRequest);
  return res.conversationId;
}

export const deleteConversation = (conversationId: string, userId: string) =>
  post("conversations/delete.php", { conversationId, userId } satisfies z.input<typeof conversationDeleteRequestSchema>);
