/**
 * How a chat screen's thread is filed as a conversation (the save call's body), and where a late
 * reply goes when its screen was left or another conversation is open: after what its conversation
 * holds now. The screen's own state is useConversationScreen's.
 */
import { cleanMarkdown } from "@storefront/shared";
import { ApiError } from "../api/client";
import type { ChatMessage, ChatRequest } from "../api/chat";
import { loadConversation, saveConversation } from "../api/conversations";
import { queryClient } from "../api/queryClient";
import { announceWalletUpdate } from "../api/wallet";
import { chatMessage } from "./useChatThread";

/** A question whose call ended (503 queued, 504) while its job was still to run: where its reply goes. */
export interface LateQuestion {
  text: string;
  history: ChatMessage[];
  /** The conversation it was asked in; null: a new one, not filed yet (a Doctor's new one has its id already). */
  conversationId: string | null;
  /** The conversation open on the screen when it was asked (null: a new thread). */
  openId: string | null;
  avatarType: ChatRequest["avatarType"];
  userId: string;
  title: (firstQuestion: string | undefined) => string;
}

/** The body that files `all` in conversation `id` (null: a new one), `jobId` being its last reply's job. */
export function filing(all: ChatMessage[], id: string | null, jobId: string, q: Pick<LateQuestion, "avatarType" | "title">) {
  return {
    conversationId: id ?? "new",
    title: q.title(all.find((m) => m.type === "user")?.content),
    messages: all,
    avatarType: q.avatarType,
    // A new thread's first charge was made before it had an id: it is filed under it now.
    ...(id ? {} : { jobIds: [jobId] }),
  };
}

/**
 * A late reply whose screen was left, or which belongs to another conversation than the open one:
 * added after what its conversation holds now (the history it was asked over, if never filed).
 */
export async function fileAway(reply: string, jobId: string, q: LateQuestion): Promise<void> {
  let before = q.history;
  if (q.conversationId) {
    try {
      before = await loadConversation(q.conversationId, q.userId);
    } catch (error) {
      // Only a conversation never filed (or deleted) starts from the history; any other failure
      // would overwrite what it holds.
      if (!(error instanceof ApiError && error.status === 404)) return;
    }
  }
  const all = [...before, chatMessage("user", q.text), chatMessage("ai", cleanMarkdown(reply))];
  await saveConversation({ userId: q.userId, ...filing(all, q.conversationId, jobId, q) }).catch(() => undefined);
  announceWalletUpdate();
  void queryClient.invalidateQueries({ queryKey: ["conversations"] });
}
