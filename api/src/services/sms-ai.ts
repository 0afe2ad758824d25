/**
 * The SMS AI screen's server side (SPEC §2 SMS AI, §7 and its notes): the backend AI reply goes
 * through the chat queue like every other AI call (price, hold, job, wait), every exchange is kept
 * in the server SMS history, and every answer fills the learned-response cache.
 */
import { Types } from "mongoose";
import {
  normaliseMessage,
  priceOf,
  type SmsAiMessage,
  type SmsAiRequest,
  type SmsAiResponse,
  type SmsConversationsQuery,
  type SmsConversationsResponse,
  type SmsLearnedResponseRequest,
  type SmsLearnedResponseResponse,
} from "@storefront/shared";
import {
  LearnedResponse,
  loadWalletTables,
  SmsAiMessage as SmsAiMessageModel,
  type SmsAiMessageDoc,
} from "@storefront/shared/server";
import type { AppContext } from "../context";
import { runJob } from "./jobs";

/** The other party of the screen's exchanges when the client names none. */
const SMS_AI_PARTY = "AI";

export interface SmsAiCall {
  userId: string;
  /** The session user's phone: the sender of their messages unless the screen names one. */
  phone: string;
  idempotencyKey: string | undefined;
  requestId?: string;
  /** When the HTTP request arrived (ms since the epoch). */
  arrivedAt?: number;
}

/**
 * The reply is not known before the charge, so the web SMS AI is priced on the segments of the
 * user's own message (pricing "sms" feature, min 1 segment).
 */
export async function smsAiReply(ctx: AppContext, input: SmsAiRequest, call: SmsAiCall): Promise<SmsAiResponse> {
  const askedAt = new Date();
  const { pricing } = await loadWalletTables();
  const cost = priceOf({ feature: "sms", text: input.message }, pricing);
  const { accepted, result } = await runJob(ctx, {
    queue: "chat",
    name: "sms",
    userId: call.userId,
    feature: "sms",
    cost,
    idempotencyKey: call.idempotencyKey,
    // A label only: the ledger outlives the message (docs/security.md).
    details: "SMS AI reply",
    payload: {
      message: input.message,
      persona: "general",
      language: input.language,
      conversationId: null,
      history: input.conversationHistory,
      channel: "sms",
    },
    ...(call.requestId ? { requestId: call.requestId } : {}),
    ...(call.arrivedAt ? { arrivedAt: call.arrivedAt } : {}),
  });
  const response = result.reply;

  const userSide = input.sender || call.phone;
  const aiSide = input.recipient || SMS_AI_PARTY;
  await Promise.all([
    storeMessage(call.userId, accepted.jobId, {
      role: "user",
      message: input.message,
      timestamp: askedAt,
      sender: userSide,
      recipient: aiSide,
      language: input.language,
    }),
    storeMessage(call.userId, accepted.jobId, {
      role: "assistant",
      message: response,
      timestamp: new Date(),
      sender: aiSide,
      recipient: userSide,
      language: input.language,
    }),
    learn(call.userId, input.message, input.language, response),
  ]);

  return { success: true, response, jobId: accepted.jobId, tokensUsed: cost, remainingCoins: accepted.remainingCoins };
}

type StoredFields = Pick<SmsAiMessageDoc, "role" | "message" | "timestamp" | "sender" | "recipient" | "language">;

/** Upsert on (jobId, role): a retried request that replays the same job stores nothing new. */
async function storeMessage(userId: string, jobId: string, fields: StoredFields): Promise<void> {
  await SmsAiMessageModel.updateOne(
    { jobId, role: fields.role },
    { $setOnInsert: { ...fields, userId: new Types.ObjectId(userId), jobId } },
    { upsert: true },
  );
}

/** The latest answer to a normalised message wins; a message of only punctuation is not cached. */
async function learn(userId: string, message: string, language: SmsAiRequest["language"], response: string): Promise<void> {
  const key = normaliseMessage(message);
  if (!key || !response) return;
  await LearnedResponse.updateOne(
    { userId: new Types.ObjectId(userId), key, language },
    { $set: { response, message }, $setOnInsert: { hits: 0 } },
    { upsert: true },
  );
}

function view(doc: SmsAiMessageDoc): SmsAiMessage {
  return {
    id: doc._id.toHexString(),
    role: doc.role,
    message: doc.message,
    timestamp: doc.timestamp.toISOString(),
    sender: doc.sender,
    recipient: doc.recipient,
    language: doc.language ?? "en",
  };
}

/** The caller's last `limit` SMS, oldest first, and the same grouped by the pair of parties. */
export async function smsConversations(userId: string, query: SmsConversationsQuery): Promise<SmsConversationsResponse> {
  const docs = await SmsAiMessageModel.find({ userId: new Types.ObjectId(userId) })
    .sort({ timestamp: -1, _id: -1 })
    .limit(query.limit)
    .lean<SmsAiMessageDoc[]>();
  const messages = docs.reverse().map(view);

  const groups = new Map<string, SmsConversationsResponse["conversations"][number]>();
  for (const m of messages) {
    // Both halves of an exchange belong to the user's side of it: their sender and recipient.
    const [sender, recipient] = m.role === "user" ? [m.sender, m.recipient] : [m.recipient, m.sender];
    const key = JSON.stringify([sender, recipient]);
    const group = groups.get(key) ?? { sender, recipient, lastMessage: "", timestamp: m.timestamp, messages: [] };
    group.messages.push(m);
    group.lastMessage = m.message;
    group.timestamp = m.timestamp;
    groups.set(key, group);
  }
  const conversations = [...groups.values()].sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  return { success: true, messages, conversations };
}

/** An earlier answer of the caller's to the same normalised message and language, if any. */
export async function learnedResponse(userId: string, input: SmsLearnedResponseRequest): Promise<SmsLearnedResponseResponse> {
  const key = normaliseMessage(input.message);
  if (!key) return { success: true, response: null, found: false };
  const doc = await LearnedResponse.findOneAndUpdate(
    { userId: new Types.ObjectId(userId), key, language: input.language },
    { $inc: { hits: 1 } },
    { returnDocument: "after", lean: true },
  );
  return doc ? { success: true, response: doc.response, found: true } : { success: true, response: null, found: false };
}
