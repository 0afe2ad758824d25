import {
  smsAiResponseSchema,
  type ChatTurn,
  type Language,
  type SmsAiMessage,
  type SmsAiRequestBody,
  type SmsConversationsResponse,
  type SmsLearnedResponseRequestBody,
  type SmsLearnedResponseResponse,
} from "@storefront/shared";
import { get, post } from "./client";

/** The backend AI reply of SMS AI: the message, the last 10 history entries and the language. */
export async function smsAiResponse(message: string, conversationHistory: ChatTurn[], language: Language): Promise<string> {
  // Parsed (this module loads with the SMS AI screen only): a reply without text is an error, not an empty SMS.
  const body: SmsAiRequestBody = { message, conversationHistory, language };
  const parsed = smsAiResponseSchema.safeParse(await post<unknown>("sms/ai-response.php", body));
  if (!parsed.success) throw new Error("Failed to send SMS");
  return parsed.data.response;
}

/** The conversations lookup: the user's server SMS history, oldest first. */
export async function smsServerHistory(userId: string): Promise<SmsAiMessage[]> {
  return (await get<SmsConversationsResponse>("sms/conversations.php", { userId })).messages;
}

/** The learned-response lookup: an earlier AI answer to the same message, or null. */
export async function smsLearnedResponse(message: string, language: Language): Promise<string | null> {
  const body: SmsLearnedResponseRequestBody = { message, language };
  const res = await post<SmsLearnedResponseResponse>("sms/learned-response.php", body);
  return typeof res.response === "string" && res.response ? res.response : null;
}
