/**
 * The state a chat screen (Text AI, the Doctor) keeps around its thread, written once: the sidebar
 * (open on wide screens), the stored conversations with their search, the open conversation (with
 * `storageKey`, restored on the next visit), the question being written in its growing box, and the
 * last question's failure (a 402 among them, shown with the way on), and each reply put in the
 * thread it was asked in (on screen or, once that thread was left, in its conversation) and filed
 * there (chatFiling). What a screen says and how it titles a conversation stay with the screen.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { cleanMarkdown, type JobResult } from "@storefront/shared";
import type { ChatMessage, ChatRequest } from "../api/chat";
import { loadConversation, type ConversationSummary } from "../api/conversations";
import { announceWalletUpdate } from "../api/wallet";
import type { ConversationKind } from "../components/ConversationSidebar";
import { useToast } from "../components/Toasts";
import { useAutoGrow } from "./useAutoGrow";
import { useUser } from "./useAuth";
import { chatMessage, useChatThread, type AskResult } from "./useChatThread";
import { fileAway, fileThread, nameThread, threadOf, type FiledThread, type Filing } from "./chatFiling";
import { useConversationList } from "./useConversationList";
import { useFormat } from "./useFormat";
import { useLateJob } from "./useLateJob";
import { useMediaQuery } from "./useMediaQuery";
import { useStoredString } from "./useStoredState";

interface Options {
  kind: ConversationKind;
  /** localStorage key that keeps the open conversation between visits; without it, leaving forgets it. */
  storageKey?: string;
  /** The texts of a conversation the search looks in (the title alone by default). */
  searchIn?: (c: ConversationSummary) => (string | undefined)[];
  /** The title a conversation is filed under, from its first question. */
  titleOf: (firstQuestion: string | undefined) => string;
  /** A new thread's id, made at its first question (the Doctor's); without it the server gives one at its first save. */
  newId?: () => string;
  /** A question's job failed after its call had ended (useLateJob); it is also the failure. */
  onLateFailure?: (error: unknown) => void;
  /** A question's reply arrived after its call had ended (useLateJob) and was added to the thread. */
  onLateReply?: () => void;
}

/** A question whose call ended (503 queued, 504) while its job was still to run: where its reply goes. */
interface LateQuestion {
  text: string;
  history: ChatMessage[];
  /** The thread it was asked in (which may have an id by the time the reply comes). */
  thread: FiledThread;
  /** The id it was asked with (null: its charge is filed under the thread's id by the next save). */
  askedId: string | null;
  avatarType: ChatRequest["avatarType"];
}

export function useConversationScreen({ kind, storageKey, searchIn, titleOf, newId, onLateFailure, onLateReply }: Options) {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const format = useFormat();
  const wide = useMediaQuery("(min-width: 769px)");
  const [sidebarOpen, setSidebarOpen] = useState(wide);
  const [conversationId, setConversationId] = useStoredString(storageKey ?? null, null);
  const thread = useChatThread();
  const [input, setInput] = useState("");
  const inputRef = useRef<HTMLTextAreaElement>(null);
  /** Why the last question failed (an API error), until the next one is sent or the conversation changes. */
  const [failure, setFailure] = useState<unknown>(null);
  const { setMessages } = thread;
  // The thread on screen, as filed (a stored one once loaded); a reply to another goes to its conversation.
  const [onScreen] = useState(() => ({ current: threadOf(null) }));
  // A reply coming after the screen was left is filed without touching its state.
  const live = useRef(false);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const list = useConversationList(kind, searchIn);

  /** How this screen files a thread of `avatarType`: listed at once when it has its id, told if it fails. */
  const filingOf = (avatarType: ChatRequest["avatarType"]): Filing => ({
    userId: user.id,
    avatarType,
    title: titleOf,
    saved: (filed, all) => {
      if (live.current && filed === onScreen.current && filed.id) setConversationId(filed.id);
      const last = all.at(-1);
      list.refresh(
        filed.id && last
          ? {
              id: filed.id,
              title: titleOf(all.find((m) => m.type === "user")?.content),
              lastMessage: last.content,
              timestamp: last.timestamp,
            }
          : undefined,
      );
    },
    failed: () => toast.error(t("errors.conversationSaveFailed")),
  });

  /**
   * Puts `question` and its `reply` in the thread `asked` and files it: on screen when it is the
   * open thread (after the question if it is there, else before the question in flight, else at
   * the end), else after what its conversation holds. Returns whether it went on screen.
   */
  function place(
    asked: FiledThread,
    question: ChatMessage,
    reply: ChatMessage,
    {
      history,
      jobId,
      askedId,
      avatarType,
    }: { history: ChatMessage[]; jobId: string; askedId: string | null; avatarType: ChatRequest["avatarType"] },
  ): boolean {
    if (askedId === null) asked.jobs.push(jobId);
    const how = filingOf(avatarType);
    if (!live.current || asked !== onScreen.current) {
      void fileAway(asked, question, reply, history, how);
      return false;
    }
    setMessages((all) => {
      const at = all.indexOf(question);
      if (at >= 0) return [...all.slice(0, at + 1), reply, ...all.slice(at + 1)];
      const next = thread.inFlight();
      const before = next ? all.indexOf(next) : -1;
      return before < 0 ? [...all, question, reply] : [...all.slice(0, before), question, reply, ...all.slice(before)];
    });
    if (asked.id) setConversationId(asked.id);
    const all = thread.settled();
    void fileThread(asked, () => all, how);
    return true;
  }

  /** A reply that came by push after its call had ended: placed as if the call had answered. */
  function late({ reply }: JobResult<"chat">, q: LateQuestion, jobId: string) {
    const placed = place(q.thread, chatMessage("user", q.text), chatMessage("ai", cleanMarkdown(reply)), { ...q, jobId });
    announceWalletUpdate();
    if (!placed) return;
    // The box's copy of the question and the 503/504 notice go.
    setFailure(null);
    setInput((box) => (box.trim() === q.text ? "" : box));
    onLateReply?.();
  }

  const watchLate = useLateJob("chat", {
    failed: (error) => {
      setFailure(error);
      onLateFailure?.(error);
    },
    completed: late,
    away: late,
  });

  useEffect(() => {
    setSidebarOpen(wide);
  }, [wide]);
  useAutoGrow(inputRef, input);

  /**
   * Loads conversation `id` and makes it the open thread, once what this tab is saving in it has
   * landed (read again if a save of it started meanwhile, so the screen never shows less than is stored).
   */
  async function show(id: string): Promise<void> {
    const target = threadOf(id);
    for (;;) {
      const saving = target.saved;
      await saving;
      const loaded = await loadConversation(id, user.id);
      if (target.saved !== saving) continue;
      onScreen.current = target;
      setMessages(loaded);
      return;
    }
  }

  // Only the id kept before this visit is restored; ids set by saving here already match the thread.
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    if (!conversationId) return;
    show(conversationId).catch(() => {
      toast.error(t("errors.conversationLoadFailed"));
      setConversationId(null);
    });
  });

  /** An empty thread with no id, the box focused: the next question starts a new conversation. */
  function newChat() {
    onScreen.current = threadOf(null);
    setMessages([]);
    setConversationId(null);
    setFailure(null);
    inputRef.current?.focus();
  }

  async function open(id: string) {
    if (id === onScreen.current.id) return;
    try {
      await show(id);
      setConversationId(id);
      setFailure(null);
      if (!wide) setSidebarOpen(false);
    } catch {
      toast.error(t("errors.conversationLoadFailed"));
    }
  }

  /**
   * Asks `text` after `history` in the open thread and files its reply there; a failed question
   * goes back in the box, and one whose job carries on is waited for (useLateJob).
   */
  async function ask(text: string, history: ChatMessage[], avatarType: ChatRequest["avatarType"]): Promise<AskResult> {
    setFailure(null);
    const asked = onScreen.current;
    if (asked.id === null && newId) nameThread(asked, newId());
    const askedId = asked.id;
    const result = await thread.ask({
      text,
      history,
      conversationId: askedId,
      avatarType,
      language: format.language,
      userId: user.id,
    });
    if (result.ok) place(asked, result.question, result.reply, { history, jobId: result.jobId, askedId, avatarType });
    else {
      setInput(text);
      if ("error" in result) {
        setFailure(result.error);
        watchLate(result.error, { text, history, thread: asked, askedId, avatarType } satisfies LateQuestion);
      }
    }
    return result;
  }

  /** What every chat screen passes to ConversationSidebar. */
  const sidebar = {
    kind,
    wide,
    open: sidebarOpen,
    onClose: () => setSidebarOpen(false),
    search: list.search,
    onSearch: list.setSearch,
    loading: list.conversations.isPending,
    activeId: conversationId,
    onOpen: (id: string) => void open(id),
  };

  return {
    ...thread,
    user,
    sidebar,
    toggleSidebar: () => setSidebarOpen((o) => !o),
    list,
    conversationId,
    setConversationId,
    input,
    setInput,
    inputRef,
    failure,
    newChat,
    ask,
  };
}

export type ConversationScreen = ReturnType<typeof useConversationScreen>;
