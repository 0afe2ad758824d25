import type { Language } from "@storefront/shared";
import { post } from "./client";

/** One message as the chat screens keep it and the conversation calls store it (SPEC §3). */
export interface ChatMessage {
  type: "user" | "ai";
  content: string;
  /** ISO time. */
  timestamp: string;
  /** Doctor messages carry a client id. */
  id?: string;
}

export interface ChatRequest {
  message: string;
  userId: string;
  conversationId: string | null;
  /** A persona id, or "doctor" from the Doctor screen. */
  avatarType: string;
  conversationHistory: ChatMessage[];
  language: Language;
}

export interface ChatResponse {
  success: boolean;
  message?: string;
  error?: string;
  /** The queue job that produced the reply; pushes of "chat:delta" carry the same id. */
  jobId?: string;
}

export async function sendChat(body: ChatRequest, signal?: AbortSignal): Promise<string> {
  const res = await post<ChatResponse>("textai/chat.php", body, signal);
  if (!res.success || typeof res.message !== "string") throw new Error(res.error ?? "Failed to send message");
  return res.message;
}
