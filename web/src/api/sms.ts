import {
  smsAiResponseSchema,
  type Language,
  type SmsAiMessage,
  type SmsConversationsResponse,
  type SmsLearnedResponseResponse,
} from "@storefront/shared";
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
  // Parsed (this module loads with the SMS AI screen only): a reply without text is an error, not an empty SMS.
  const parsed = smsAiResponseSchema.safeParse(
    await post<unknown>("sms/ai-response.php", { message, conversationHistory, language }),
  );
  if (!parsed.success) throw new Error("Failed to send SMS");
  return parsed.data.response;
}

/** A message of the server SMS history (sms/conversations.php). */
export type ServerSmsMessage = SmsAiMessage;

/** The conversations lookup: the user's server SMS history, oldest first. */
export async function smsServerHistory(userId: string): Promise<ServerSmsMessage[]> {
  return (await get<SmsConversationsResponse>("sms/conversations.php", { userId })).messages;
}

/** The learned-response lookup: an earlier AI answer to the same message, or null. */
export async function smsLearnedResponse(message: string, language: Language): Promise<string | null> {
  const res = await post<SmsLearnedResponseResponse>("sms/learned-response.php", { message, language });
  return typeof res.response === "string" && res.response ? res.response : null;
}
