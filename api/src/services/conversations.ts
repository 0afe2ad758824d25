/**
 * Saved chat threads (SPEC §3, §7): only the owner can read, save or delete one; anyone else is
 * told it does not exist. Titles follow SPEC §5 when the client sends none.
 */
import { Types } from "mongoose";
import {
  conversationTitle,
  doctorConversationTitle,
  type ConversationMessage,
  type ConversationSaveRequest,
  type ConversationSummary,
  type PersonaId,
} from "@storefront/shared";
import { Conversation, type ConversationDoc } from "@storefront/shared/server";
import { conversationCosts, fileJobs } from "./conversation-costs";
import { notFound } from "../errors";

const LIST_LIMIT = 200;
const LAST_MESSAGE_CHARS = 200;
const NOT_FOUND = "Conversation not found";

/** Ids we issue are ObjectId hex; anything else is a client-made id (the Doctor's "conv_..."). */
const isIssuedId = (id: string) => /^[a-f0-9]{24}$/u.test(id);

function summaryOf(doc: ConversationDoc, coinsSpent: number): ConversationSummary {
  return {
    id: doc.clientId,
    title: doc.title,
    created_at: doc.createdAt.toISOString(),
    updated_at: doc.updatedAt.toISOString(),
    lastMessage: doc.lastMessage,
    timestamp: doc.updatedAt.toISOString(),
    type: "text",
    avatarType: doc.avatarType as PersonaId,
    messageCount: doc.messageCount,
    coinsSpent,
  };
}

async function costOf(userId: string, clientId: string): Promise<number> {
  return (await conversationCosts(userId, [clientId])).get(clientId) ?? 0;
}

export async function listConversations(userId: string, kind?: "doctor" | "text"): Promise<ConversationSummary[]> {
  const filter: Record<string, unknown> = { userId: new Types.ObjectId(userId) };
  if (kind === "doctor") filter.avatarType = "doctor";
  if (kind === "text") filter.avatarType = { $ne: "doctor" };
  const docs = await Conversation.find(filter, { messages: 0 })
    .sort({ updatedAt: -1 })
    .limit(LIST_LIMIT)
    .lean<ConversationDoc[]>();
  const costs = await conversationCosts(
    userId,
    docs.map((d) => d.clientId),
  );
  return docs.map((doc) => summaryOf(doc, costs.get(doc.clientId) ?? 0));
}

async function ownedBy(userId: string, conversationId: string): Promise<ConversationDoc> {
  const doc = await Conversation.findOne({ clientId: conversationId }).lean<ConversationDoc>();
  if (!doc || !doc.userId.equals(userId)) throw notFound(NOT_FOUND);
  return doc;
}

export async function loadConversation(userId: string, conversationId: string) {
  const doc = await ownedBy(userId, conversationId);
  const messages = doc.messages.map((m) => ({
    type: m.type,
    content: m.content,
    timestamp: m.timestamp.toISOString(),
    ...(m.clientId ? { id: m.clientId } : {}),
  }));
  const coinsSpent = await costOf(userId, doc.clientId);
  return { success: true as const, conversation: { ...summaryOf(doc, coinsSpent), messages }, messages };
}

function titleFor(input: ConversationSaveRequest, doctor: boolean): string {
  if (input.title) return input.title;
  const firstUser = input.messages.find((m) => m.type === "user")?.content;
  return doctor ? doctorConversationTitle(firstUser) : conversationTitle(firstUser);
}

function storedMessages(messages: ConversationMessage[], now: Date) {
  return messages.map((m) => ({
    type: m.type,
    content: m.content,
    timestamp: m.timestamp ? new Date(m.timestamp) : now,
    clientId: m.id ?? null,
  }));
}

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number } | null)?.code === 11000;
}

/** Creates ("new" or an unknown client-made id) or replaces the owner's thread. */
export async function saveConversation(userId: string, input: ConversationSaveRequest) {
  const now = new Date();
  const fresh = input.conversationId === "new";
  const clientId = fresh ? new Types.ObjectId().toHexString() : input.conversationId;
  const existing = fresh ? null : await Conversation.findOne({ clientId }, { userId: 1, avatarType: 1 }).lean<ConversationDoc>();
  if (existing && !existing.userId.equals(userId)) throw notFound(NOT_FOUND);
  // Ids we issue are never created by a save: an unknown one was deleted or never existed.
  if (!fresh && !existing && isIssuedId(clientId)) throw notFound(NOT_FOUND);

  const avatarType: PersonaId =
    input.avatarType ?? (existing?.avatarType as PersonaId | undefined) ?? (clientId.startsWith("conv_") ? "doctor" : "general");
  const messages = storedMessages(input.messages, now);
  const fields = {
    title: titleFor(input, avatarType === "doctor"),
    avatarType,
    messages,
    messageCount: messages.length,
    lastMessage: (messages.at(-1)?.content ?? "").slice(0, LAST_MESSAGE_CHARS),
  };

  let doc: ConversationDoc | null;
  if (existing) {
    doc = await Conversation.findOneAndUpdate(
      { _id: existing._id, userId },
      { $set: fields },
      { returnDocument: "after" },
    ).lean<ConversationDoc>();
  } else {
    try {
      doc = (await Conversation.create({ userId, clientId, ...fields })).toObject() as ConversationDoc;
    } catch (error) {
      // Two first saves of one client-made id raced: the loser updates what the winner made.
      if (!isDuplicateKey(error)) throw error;
      doc = await Conversation.findOneAndUpdate(
        { clientId, userId },
        { $set: fields },
        { returnDocument: "after" },
      ).lean<ConversationDoc>();
    }
  }
  if (!doc) throw notFound(NOT_FOUND);
  await fileJobs(userId, input.jobIds, doc.clientId);
  const coinsSpent = await costOf(userId, doc.clientId);
  return { success: true as const, conversationId: doc.clientId, conversation: summaryOf(doc, coinsSpent) };
}

export async function deleteConversation(userId: string, conversationId: string): Promise<{ success: true }> {
  const result = await Conversation.deleteOne({ clientId: conversationId, userId: new Types.ObjectId(userId) });
  if (result.deletedCount !== 1) throw notFound(NOT_FOUND);
  return { success: true };
}
