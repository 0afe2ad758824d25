/**
 * The state a chat screen (Text AI, the Doctor) keeps around its thread, written once: the sidebar
 * (open on wide screens), the stored conversations with their search, the open conversation (with
 * `storageKey`, restored on the next visit), the question being written in its growing box, and the
 * last question's failure (a 402 among them, shown with the way on). What a screen says and how it
 * titles and files a conversation stay with the screen.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { cleanMarkdown } from "@storefront/shared";
import type { ChatMessage, ChatRequest } from "../api/chat";
import { loadConversation, saveConversation, type ConversationSummary, type SaveConversation } from "../api/conversations";
import { announceWalletUpdate } from "../api/wallet";
import type { ConversationKind } from "../components/ConversationSidebar";
import { useToast } from "../components/Toasts";
import { useAutoGrow } from "./useAutoGrow";
import { useUser } from "./useAuth";
import { chatMessage, useChatThread, type AskResult } from "./useChatThread";
import { fileAway, filing, type LateQuestion } from "./chatFiling";
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
  /** A question's job failed after its call had ended (useLateJob); it is also the failure. */
  onLateFailure?: (error: unknown) => void;
  /** A question's reply arrived after its call had ended (useLateJob) and was added to the thread. */
  onLateReply?: () => void;
}

export function useConversationScreen({ kind, storageKey, searchIn, titleOf, onLateFailure, onLateReply }: Options) {
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
  const watchLate = useLateJob("chat", {
    failed: (error) => {
      setFailure(error);
      onLateFailure?.(error);
    },
    // Shown where it was asked, as if the call had answered: the question and its reply end the
    // thread, the box's copy of the question and the 503/504 notice go, and the thread is filed.
    completed: ({ reply }, q: LateQuestion, jobId) => {
      if (q.openId !== conversationId || thread.loading) return void fileAway(reply, jobId, q);
      const all = [...thread.messages, chatMessage("user", q.text), chatMessage("ai", cleanMarkdown(reply))];
      setMessages(all);
      setFailure(null);
      setInput((box) => (box.trim() === q.text ? "" : box));
      announceWalletUpdate();
      onLateReply?.();
      void file(all, q.conversationId, jobId, q.avatarType);
    },
    away: ({ reply }, q, jobId) => void fileAway(reply, jobId, q),
  });

  useEffect(() => {
    setSidebarOpen(wide);
  }, [wide]);
  useAutoGrow(inputRef, input);

  const list = useConversationList(kind, searchIn);

  // Only the id kept before this visit is restored; ids set by saving here already match the thread.
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    if (!conversationId) return;
    loadConversation(conversationId, user.id)
      .then(setMessages)
      .catch(() => {
        toast.error(t("errors.conversationLoadFailed"));
        setConversationId(null);
      });
  }, [conversationId, user.id, toast, t, setConversationId, setMessages]);

  /** An empty thread with no id, the box focused: the next question starts a new conversation. */
  function newChat() {
    setMessages([]);
    setConversationId(null);
    setFailure(null);
    inputRef.current?.focus();
  }

  async function open(id: string) {
    if (id === conversationId) return;
    try {
      setMessages(await loadConversation(id, user.id));
      setConversationId(id);
      setFailure(null);
      if (!wide) setSidebarOpen(false);
    } catch {
      toast.error(t("errors.conversationLoadFailed"));
    }
  }

  /** Asks `text` after `history` in conversation `id`; a failed question goes back in the box. */
  async function ask(
    text: string,
    history: ChatMessage[],
    avatarType: ChatRequest["avatarType"],
    id = conversationId,
  ): Promise<AskResult> {
    setFailure(null);
    const result = await thread.ask({
      text,
      history,
      conversationId: id,
      avatarType,
      language: format.language,
      userId: user.id,
    });
    if (!result.ok) {
      setInput(text);
      if ("error" in result) {
        setFailure(result.error);
        watchLate(result.error, {
          text,
          history,
          conversationId: id,
          openId: conversationId,
          avatarType,
          userId: user.id,
          title: titleOf,
        });
      }
    }
    return result;
  }

  /**
   * Files the thread `all` after a reply (`jobId` its job) in conversation `id` (null: a new one,
   * the id the server gives kept), listed at once when it has its id.
   */
  async function file(all: ChatMessage[], id: string | null, jobId: string, avatarType: ChatRequest["avatarType"]) {
    const body = filing(all, id, jobId, { avatarType, title: titleOf });
    const last = all.at(-1);
    await save(body, id && last ? { id, title: body.title, lastMessage: last.content, timestamp: last.timestamp } : undefined);
  }

  /**
   * Stores the thread and keeps the id the server files it under. `listed` is its entry, shown at
   * the top of the list at once; the list is read again either way, for the server's figures.
   */
  async function save(body: Omit<SaveConversation, "userId">, listed?: ConversationSummary): Promise<void> {
    const savedId = await saveConversation({ userId: user.id, ...body }).catch(() => null);
    if (savedId && savedId !== "new") setConversationId(savedId);
    list.refresh(listed);
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
    file,
  };
}

export type ConversationScreen = ReturnType<typeof useConversationScreen>;
