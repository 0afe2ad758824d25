import { get, post } from "./client";
import type { ChatMessage } from "./chat";

export interface ConversationSummary {
  id: string;
  title: string;
  created_at?: string;
  updated_at?: string;
  /** Doctor list extras (SPEC §3). */
  lastMessage?: string;
  timestamp?: string;
  messages?: ChatMessage[];
}

/** `kind` keeps the Doctor's consultations apart from the persona chats. */
export async function listConversations(userId: string, kind?: "text" | "doctor"): Promise<ConversationSummary[]> {
  const res = await get<{ conversations?: ConversationSummary[] }>("conversations/list.php", { userId, kind });
  return (res.conversations ?? []).map((c) => ({ ...c, id: String(c.id) }));
}

/** SPEC §7: the messages come as conversation.messages or messages. */
export async function loadConversation(conversationId: string, userId: string): Promise<ChatMessage[]> {
  const res = await get<{ success?: boolean; conversation?: { messages?: ChatMessage[] }; messages?: ChatMessage[] }>(
    "conversations/load.php",
    { conversationId, userId },
  );
  return res.conversation?.messages ?? res.messages ?? [];
}

export interface SaveConversation {
  userId: string;
  /** "new" when the conversation has no id yet. */
  conversationId: string;
  title: string;
  messages: ChatMessage[];
  /** Persona of the thread; "doctor" files it under the Doctor's consultations. */
  avatarType?: string;
}

/** Returns the id the server keeps the conversation under. */
export async function saveConversation(body: SaveConversation): Promise<string> {
  const res = await post<{ conversationId?: string | number; id?: string | number; conversation?: { id?: string | number } }>(
    "conversations/save.php",
    {
      ...body,
      messages: body.messages.map(({ type, content, timestamp, id }) => ({ type, content, timestamp, ...(id ? { id } : {}) })),
    },
  );
  const id = res?.conversationId ?? res?.conversation?.id ?? res?.id ?? body.conversationId;
  return String(id);
}

export const deleteConversation = (conversationId: string, userId: string) =>
  post("conversations/delete.php", { conversationId, userId });
