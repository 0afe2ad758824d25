/** The AI reply to a subscriber's message, with the conversation so far; the local engine when the provider fails. */
import {
  cleanMarkdown,
  LIMITS,
  limitSmsReply,
  personaById,
  smsSystemPrompt,
  type ChatTurn,
  type Language,
} from "@storefront/shared";
import { localReply } from "@storefront/shared/reply-engine";
import { SmsMessage } from "@storefront/shared/server";
import type { Context } from "./types";

/** The last 10 messages with this phone (SPEC §9 backend context), oldest first, as chat turns. */
async function history(ctx: Context): Promise<ChatTurn[]> {
  const rows = await SmsMessage.find(
    {
      phone: ctx.phone,
      key: { $ne: `in:${ctx.key}` },
      $or: [{ direction: "inbound" }, { direction: "outbound", state: "sent", kind: "ai" }],
    },
    { direction: 1, message: 1 },
  )
    .sort({ created_at: -1, _id: -1 })
    .limit(LIMITS.smsBackendContext)
    .lean();
  return rows.reverse().map((r) => ({ role: r.direction === "inbound" ? "user" : "assistant", content: r.message }));
}

/**
 * How long the provider may take over one SMS reply (a few hundred characters) before the local
 * reply is sent instead: well under the provider's own AI_TIMEOUT_MS, which is sized for long chats.
 */
const SMS_AI_TIMEOUT_MS = 30_000;

export async function aiReply(ctx: Context, language: Language): Promise<string> {
  const persona = personaById("general");
  const request = {
    system: smsSystemPrompt(persona.systemPrompt, language),
    history: await history(ctx),
    message: ctx.job.text,
    language,
    persona: persona.id,
    // What the SMS can hold (limitSmsReply cuts the rest): the provider is not paid for more.
    maxTokens: LIMITS.smsReplyMaxTokens,
  };
  let text = "";
  try {
    for await (const delta of ctx.deps.chat.stream(request, AbortSignal.timeout(SMS_AI_TIMEOUT_MS))) text += delta;
  } catch (error) {
    // SPEC §8: backend AI errors fall back to the local rule-based reply.
    ctx.deps.log.warn({ err: error, messageId: ctx.job.messageId }, "chat provider failed; local reply used");
    text = "";
  }
  const cleaned = cleanMarkdown(text);
  return limitSmsReply(cleaned || (await localReply({ message: ctx.job.text, language, history: request.history })), language);
}
