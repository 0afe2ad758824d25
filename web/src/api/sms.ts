import type { Language } from "@storefront/shared";
import { get, post } from "./client";

export interface SmsHistoryEntry {
  role: "user" | "assistant";
  content: string;
}

/** The backend AI reply of SMS AI: the message, the last 10 history entries and the language. */
export async function smsAiResponse(
  message: string,
  conversationHistory: SmsHistoryEntry[],
  language: Language,
): Promise<string> {
  const res = await post<{ success?: boolean; response?: string; error?: string }>("sms/ai-response.php", {
    message,
    conversationHistory,
    language,
  });
  if (typeof res.response !== "string") throw new Error(res.error ?? "Failed to send SMS");
  return res.response;
}

/** A message of the server SMS history (sms/conversations.php). */
export interface ServerSmsMessage {
  role: "user" | "assistant";
  message: string;
  timestamp: string;
  sender: string;
  recipient: string;
}

/** The conversations lookup: the user's server SMS history, oldest first. */
export async function smsServerHistory(userId: string): Promise<ServerSmsMessage[]> {
  const res = await get<{ messages?: ServerSmsMessage[] }>("sms/conversations.php", { userId });
  return res.messages ?? [];
}

/** The learned-response lookup: an earlier AI answer to the same message, or null. */
export async function smsLearnedResponse(message: string, language: Language): Promise<string | null> {
  const res = await post<{ success?: boolean; response?: string | null }>("sms/learned-response.php", { message, language });
  return typeof res.response === "string" && res.response ? res.response : null;
}
