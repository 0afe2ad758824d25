/**
 * The state a chat screen (Text AI, the Doctor) keeps around its thread, written once: the sidebar
 * (open on wide screens), the stored conversations with their search, the open conversation (with
 * `storageKey`, restored on the next visit), the question being written in its growing box, and the
 * last question's failure (a 402 among them, shown with the way on). What a screen says and how it
 * titles and files a conversation stay with the screen.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ChatMessage, ChatRequest } from "../api/chat";
import { loadConversation, saveConversation, type ConversationSummary, type SaveConversation } from "../api/conversations";
import type { ConversationKind } from "../components/ConversationSidebar";
import { useToast } from "../components/Toasts";
import { useAutoGrow } from "./useAutoGrow";
import { useUser } from "./useAuth";
import { useChatThread, type AskResult } from "./useChatThread";
import { useConversationList } from "./useConversationList";
import { useFormat } from "./useFormat";
import { useLateJobFailure } from "./useLateJobFailure";
import { useMediaQuery } from "./useMediaQuery";
import { useStoredString } from "./useStoredState";

interface Options {
  kind: ConversationKind;
  /** localStorage key that keeps the open conversation between visits; without it, leaving forgets it. */
  storageKey?: string;
  /** The texts of a conversation the search looks in (the title alone by default). */
  searchIn?: (c: ConversationSummary) => (string | undefined)[];
  /** A question's job failed after its call had ended (useLateJobFailure); it is also the failure. */
  onLateFailure?: (error: unknown) => void;
}

export function useConversationScreen({ kind, storageKey, searchIn, onLateFailure }: Options) {
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
  const watchLate = useLateJobFailure((error) => {
    setFailure(error);
    onLateFailure?.(error);
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
        watchLate(result.error);
      }
    }
    return result;
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
    save,
  };
}

export type ConversationScreen = ReturnType<typeof useConversationScreen>;
