/**
 * The conversation state Text AI and the Doctor share: the messages on screen, the question in
 * flight with its Stop, and the reply's words as the chat worker pushes them ("chat:delta"), shown
 * before the whole reply arrives. Saving and how a failure reads stay with each screen.
 */
import { useCallback, useRef, useState } from "react";
import { cleanMarkdown } from "@storefront/shared";
import { sendChat, type ChatMessage, type ChatRequest } from "../api/chat";
import { announceWalletUpdate } from "../api/wallet";
import { useServerEvent } from "./useServerEvent";

export type AskResult =
  /** Answered: `question` is in the thread, `reply` not yet (the screen puts it where its thread is now). */
  | { ok: true; question: ChatMessage; reply: ChatMessage; jobId: string }
  | { ok: false; error: unknown }
  /** Stopped by the user: the question is taken back and nothing is reported. */
  | { ok: false; stopped: true };

export interface Ask {
  text: string;
  /** The messages before this question (a regenerate passes the thread up to the last question). */
  history: ChatMessage[];
  conversationId: string | null;
  avatarType: ChatRequest["avatarType"];
  language: ChatRequest["language"];
  userId: string;
}

/** A new message of the thread, stamped now. */
export const chatMessage = (type: ChatMessage["type"], content: string): ChatMessage => ({
  id: `msg_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`,
  type,
  content,
  timestamp: new Date().toISOString(),
});

export function useChatThread() {
  const [messages, setShown] = useState<ChatMessage[]>([]);
  // The thread as it is now, not as last rendered: an update (a late reply, an answer) is made to
  // it, so one never undoes another.
  const latest = useRef<ChatMessage[]>([]);
  const setMessages = useCallback((next: ChatMessage[] | ((thread: ChatMessage[]) => ChatMessage[])) => {
    latest.current = typeof next === "function" ? next(latest.current) : next;
    setShown(latest.current);
  }, []);
  const [loading, setLoading] = useState(false);
  const [streamed, setStreamed] = useState("");
  const abort = useRef<AbortController | null>(null);
  // The question in flight and its conversation: pushes for another tab's conversation are not ours.
  const asking = useRef<{ conversationId: string | null; question: ChatMessage } | null>(null);

  useServerEvent("chat:delta", (event) => {
    const current = asking.current;
    if (current && (event.conversationId === null || event.conversationId === current.conversationId))
      setStreamed((s) => s + event.delta);
  });

  async function ask({ text, history, conversationId, avatarType, language, userId }: Ask): Promise<AskResult> {
    const question = chatMessage("user", text);
    setMessages([...history, question]);
    setLoading(true);
    setStreamed("");
    const controller = new AbortController();
    abort.current = controller;
    asking.current = { conversationId, question };
    try {
      const answer = await sendChat(
        { message: text, userId, conversationId, avatarType, conversationHistory: history, language },
        controller.signal,
      );
      announceWalletUpdate();
      return { ok: true, question, reply: chatMessage("ai", cleanMarkdown(answer.reply)), jobId: answer.jobId };
    } catch (error) {
      // A failed or stopped question is not part of the conversation (what came meanwhile stays).
      setMessages((thread) => thread.filter((m) => m !== question));
      return controller.signal.aborted ? { ok: false, stopped: true } : { ok: false, error };
    } finally {
      if (abort.current === controller) {
        abort.current = null;
        asking.current = null;
        setLoading(false);
        setStreamed("");
      }
    }
  }

  function stop() {
    abort.current?.abort();
  }

  /** The last question and the thread before it, for regenerate and retry. */
  function lastQuestion(): { text: string; history: ChatMessage[] } | null {
    const index = messages.findLastIndex((m) => m.type === "user");
    return index < 0 ? null : { text: messages[index]!.content, history: messages.slice(0, index) };
  }

  /** The question in flight, if any. */
  const inFlight = useCallback(() => asking.current?.question ?? null, []);
  /** The thread now without the question in flight: what is filed. */
  const settled = useCallback(() => latest.current.filter((m) => m !== asking.current?.question), []);

  return { messages, setMessages, loading, streamed, ask, stop, lastQuestion, inFlight, settled };
}
