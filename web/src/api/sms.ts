import type { Language } from "@storefront/shared";
import { post } from "./client";

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
