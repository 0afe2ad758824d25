/**
 * SPEC §2/§4 Text AI: persona chat with a conversation sidebar, the persona picker and its
 * change-agent confirm, Enter / Shift+Enter / Ctrl+N, a 120 px growing textarea, messages that
 * revert on failure, the open conversation restored from storage, and replies streamed by push.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  conversationTitle,
  DOCTOR_TITLE_PREFIX,
  DEFAULT_PERSONA,
  PERSONAS,
  personaById,
  TOAST_MS,
  type PersonaId,
} from "@storefront/shared";
import type { ChatMessage } from "../../api/chat";
import { deleteConversation, listConversations, loadConversation, saveConversation } from "../../api/conversations";
import { AppLink } from "../../components/AppLink";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ConversationCost, ConversationSidebar } from "../../components/ConversationSidebar";
import { GetCoinsLink, isShortOfCoins } from "../../components/GetCoinsLink";
import { PersonaIcon, StopIcon } from "../../components/toolIcons";
import { MessageActions } from "../../components/MessageActions";
import { Avatar, BackButton, initialOf, PageHeader, SidebarToggle } from "../../components/Layout";
import { LanguageToggle } from "../../components/LanguageToggle";
import { useToast } from "../../components/Toasts";
import { WalletBadge } from "../../components/WalletBadge";
import { useAutoGrow } from "../../hooks/useAutoGrow";
import { useUser } from "../../hooks/useAuth";
import { useChatErrors } from "../../hooks/useChatErrors";
import { useChatThread } from "../../hooks/useChatThread";
import { useFormat } from "../../hooks/useFormat";
import { useMediaQuery } from "../../hooks/useMediaQuery";
import { useStoredString } from "../../hooks/useStoredState";
import "./TextAI.css";

const PERSONA_KEY = "selectedAvatarType";
const CONVERSATION_KEY = "currentConversationId";

export default function TextAI() {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const format = useFormat();
  const chatError = useChatErrors();
  const queryClient = useQueryClient();
  const wide = useMediaQuery("(min-width: 769px)");
  const [sidebarOpen, setSidebarOpen] = useState(wide);
  const [storedPersona, setStoredPersona] = useStoredString(PERSONA_KEY, null);
  const [conversationId, setConversationId] = useStoredString(CONVERSATION_KEY, null);
  const persona = personaById(storedPersona ?? DEFAULT_PERSONA);
  const { messages, setMessages, loading, streamed, ask, stop, lastQuestion } = useChatThread();
  const [input, setInput] = useState("");
  /** The 402, kept above the composer with the way on (a toast would vanish with the link). */
  const [shortOfCoins, setShortOfCoins] = useState<unknown>(null);
  const [search, setSearch] = useState("");
  const [pickerOpen, setPickerOpen] = useState(false);
  const [picked, setPicked] = useState<PersonaId | null>(null);
  const [pendingPersona, setPendingPersona] = useState<PersonaId | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<{ id: string; title: string } | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const personaName = (id: PersonaId) => t(`personas.${id}.name`, { defaultValue: personaById(id).name });

  useEffect(() => {
    setSidebarOpen(wide);
  }, [wide]);
  useAutoGrow(inputRef, input);

  const conversations = useQuery({
    queryKey: ["conversations", "text", user.id],
    queryFn: () => listConversations(user.id, "text"),
  });
  useEffect(() => {
    if (conversations.isError) toast.error(t("errors.historyLoadFailed"));
  }, [conversations.isError, toast, t]);

  // Only the id stored before this visit is restored; ids set by saving here already match the thread.
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
  }, [conversationId, user.id, toast, t, setConversationId]);

  useEffect(() => {
    endRef.current?.scrollIntoView({ block: "end" });
  }, [messages, streamed, loading]);

  const newChat = useCallback(() => {
    setMessages([]);
    setConversationId(null);
    setInput("");
    inputRef.current?.focus();
  }, [setConversationId, setMessages]);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "n") {
        event.preventDefault();
        newChat();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [newChat]);

  /** Sends the box's text, or (regenerate) an earlier question again over the history before it. */
  async function send(again?: { text: string; history: ChatMessage[] }) {
    const text = (again?.text ?? input).trim();
    if (!text || loading) return;
    if (!again) setInput("");
    const result = await ask({
      text,
      history: again?.history ?? messages,
      conversationId,
      avatarType: persona.id,
      language: format.language,
      userId: user.id,
    });
    if (!result.ok) {
      setInput(text);
      if ("error" in result) {
        if (isShortOfCoins(result.error)) setShortOfCoins(result.error);
        else toast.error(chatError(result.error, t("errors.sendFailed")));
      }
      return;
    }
    setShortOfCoins(null);
    const firstUser = result.all.find((m) => m.type === "user")?.content;
    const savedId = await saveConversation({
      userId: user.id,
      conversationId: conversationId ?? "new",
      title: conversationTitle(firstUser),
      messages: result.all,
      avatarType: persona.id,
      ...(conversationId ? {} : { jobIds: [result.jobId] }),
    }).catch(() => conversationId);
    if (savedId && savedId !== "new") setConversationId(savedId);
    void queryClient.invalidateQueries({ queryKey: ["conversations", "text"] });
  }

  function regenerate() {
    const last = lastQuestion();
    if (last) void send(last);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  async function open(id: string) {
    if (id === conversationId) return;
    try {
      const loaded = await loadConversation(id, user.id);
      setMessages(loaded);
      setConversationId(id);
      if (!wide) setSidebarOpen(false);
    } catch {
      toast.error(t("errors.conversationLoadFailed"));
    }
  }

  async function confirmDelete() {
    const target = deleteTarget;
    setDeleteTarget(null);
    if (!target) return;
    try {
      await deleteConversation(target.id, user.id);
      if (target.id === conversationId) newChat();
      void queryClient.invalidateQueries({ queryKey: ["conversations", "text"] });
    } catch {
      toast.error(t("errors.conversationDeleteFailed"));
    }
  }

  function applyPersona(id: PersonaId, announce: boolean) {
    setStoredPersona(id);
    if (announce) {
      newChat();
      toast.success(t("textAi.switched", { agent: personaName(id) }), TOAST_MS.personaSwitch);
    }
    setTimeout(() => inputRef.current?.focus(), 0);
  }

  function confirmPicker() {
    if (!picked) return;
    setPickerOpen(false);
    if (storedPersona === null) return applyPersona(picked, false);
    if (picked === persona.id) return;
    if (messages.length > 0 || input.trim()) setPendingPersona(picked);
    else applyPersona(picked, false);
  }

  const visible = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (conversations.data ?? [])
      .filter((c) => !c.title.startsWith(DOCTOR_TITLE_PREFIX))
      .filter((c) => !q || c.title.toLowerCase().includes(q))
      .map((c) => ({
        id: c.id,
        title: c.title,
        detail: (
          <>
            {c.created_at && format.date(c.updated_at ?? c.created_at)}
            {c.coinsSpent !== undefined && <ConversationCost coins={c.coinsSpent} />}
          </>
        ),
      }));
  }, [conversations.data, search, format]);

  const phoneTail = user.phone.slice(-4);

  return (
    <div className={`text-ai ${sidebarOpen ? "text-ai--sidebar-open" : ""}`}>
      <ConversationSidebar
        wide={wide}
        open={sidebarOpen}
        onClose={() => setSidebarOpen(false)}
        heading={t("textAi.history")}
        newLabel={t("textAi.newChat")}
        newTitle={t("textAi.newChatLabel")}
        onNew={newChat}
        search={search}
        onSearch={setSearch}
        searchPlaceholder={t("textAi.search")}
        searchLabel={t("textAi.searchLabel")}
        items={visible}
        activeId={conversationId}
        onOpen={(id) => void open(id)}
        empty={conversations.isPending ? null : search ? t("textAi.noMatches") : t("textAi.noConversations")}
        onDelete={(item) => setDeleteTarget({ id: item.id, title: item.title })}
        footer={
          <AppLink to="/profile" className="text-ai__profile">
            <span className="avatar avatar--small" aria-hidden="true">
              {initialOf(user.phone)}
            </span>
            <span dir="ltr">{t("textAi.profileEntry", { tail: phoneTail })}</span>
          </AppLink>
        }
      />

      <div className="text-ai__main">
        <PageHeader
          title={t("textAi.title")}
          start={
            <>
              <SidebarToggle
                open={sidebarOpen}
                onToggle={() => setSidebarOpen((o) => !o)}
                label={sidebarOpen ? t("textAi.closeSidebar") : t("textAi.openSidebar")}
              />
              <BackButton />
            </>
          }
          end={
            <>
              <LanguageToggle />
              <WalletBadge />
              <button
                type="button"
                className="persona-button"
                style={{ ["--persona" as string]: persona.color }}
                onClick={() => {
                  setPicked(null);
                  setPickerOpen(true);
                }}
                // The persona's name it shows comes first (what a voice control user says, WCAG 2.5.3).
                aria-label={t("textAi.personaButton", { name: personaName(persona.id) })}
                data-testid="persona-button"
              >
                <span className="persona-dot" aria-hidden="true">
                  <PersonaIcon id={persona.id} size={16} />
                </span>
                <span className="persona-button__name">{personaName(persona.id)}</span>
              </button>
              <Avatar phone={user.phone} />
            </>
          }
        />

        <main id="main" className="text-ai__thread" aria-live="polite">
          {messages.length === 0 && !loading ? (
            <div className="text-ai__empty">
              <span
                className="persona-dot persona-dot--large"
                style={{ ["--persona" as string]: persona.color }}
                aria-hidden="true"
              >
                <PersonaIcon id={persona.id} size={28} />
              </span>
              <h2>{t("textAi.emptyState")}</h2>
              <p>{t("textAi.emptyHint", { persona: personaName(persona.id) })}</p>
            </div>
          ) : (
            <ol className="chat-list">
              {messages.map((m, i) => (
                <li key={i} className={`bubble bubble--${m.type}`} data-testid={`message-${m.type}`}>
                  <span className="visually-hidden">{m.type === "user" ? t("common.you") : personaName(persona.id)}: </span>
                  <span dir="auto">{m.content}</span>
                  <MessageActions
                    text={m.content}
                    onRegenerate={m.type === "ai" && i === messages.length - 1 && !loading ? regenerate : undefined}
                  />
                </li>
              ))}
              {loading && (
                <li className="bubble bubble--ai bubble--pending">
                  {streamed ? (
                    <span dir="auto">{streamed}</span>
                  ) : (
                    <span className="typing" aria-label={t("textAi.thinking")}>
                      <span />
                      <span />
                      <span />
                    </span>
                  )}
                </li>
              )}
            </ol>
          )}
          <div ref={endRef} />
        </main>

        {shortOfCoins !== null && (
          <p className="alert alert--error text-ai__short" role="alert" data-testid="text-ai-short">
            {chatError(shortOfCoins, t("errors.sendFailed"))} <GetCoinsLink error={shortOfCoins} />
          </p>
        )}
        <form
          className="composer"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <label htmlFor="text-ai-input" className="visually-hidden">
            {t("textAi.inputLabel")}
          </label>
          <textarea
            id="text-ai-input"
            ref={inputRef}
            className="textarea composer__input"
            rows={1}
            value={input}
            placeholder={t("textAi.inputPlaceholder")}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={onKeyDown}
          />
          {loading ? (
            <button type="button" className="btn btn--secondary composer__send" onClick={stop}>
              <StopIcon size={16} /> {t("doctor.stop")}
            </button>
          ) : (
            <button type="submit" className="btn btn--primary composer__send" disabled={!input.trim()}>
              {t("common.send")}
            </button>
          )}
        </form>
      </div>

      {pickerOpen && (
        <PersonaPicker
          current={persona.id}
          picked={picked}
          onPick={setPicked}
          onConfirm={confirmPicker}
          onClose={() => setPickerOpen(false)}
          name={personaName}
        />
      )}
      <ConfirmDialog
        open={pendingPersona !== null}
        title={t("textAi.changeAgentTitle")}
        message={t("textAi.changeAgentMessage")}
        confirmLabel={t("common.yes")}
        cancelLabel={t("common.no")}
        onConfirm={() => {
          if (pendingPersona) applyPersona(pendingPersona, true);
          setPendingPersona(null);
        }}
        onCancel={() => setPendingPersona(null)}
      />
      <ConfirmDialog
        open={deleteTarget !== null}
        danger
        title={t("textAi.deleteTitle")}
        message={t("textAi.deleteMessage")}
        confirmLabel={t("common.delete")}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleteTarget(null)}
      />
    </div>
  );
}

interface PickerProps {
  current: PersonaId;
  picked: PersonaId | null;
  onPick(id: PersonaId): void;
  onConfirm(): void;
  onClose(): void;
  name(id: PersonaId): string;
}

function PersonaPicker({ current, picked, onPick, onConfirm, onClose, name }: PickerProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog persona-picker"
      aria-labelledby="persona-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="persona-title" className="dialog__title">
        {t("textAi.personaTitle")}
      </h2>
      <div className="persona-picker__grid" role="radiogroup" aria-labelledby="persona-title">
        {PERSONAS.map((p) => (
          <button
            key={p.id}
            type="button"
            role="radio"
            aria-checked={picked === p.id}
            className={`persona-option${picked === p.id ? " persona-option--picked" : ""}${current === p.id ? " persona-option--current" : ""}`}
            style={{ ["--persona" as string]: p.color }}
            onClick={() => onPick(p.id)}
          >
            <span className="persona-dot" aria-hidden="true">
              <PersonaIcon id={p.id} size={16} />
            </span>
            <span className="persona-option__name">{name(p.id)}</span>
            <span className="persona-option__description">
              {t(`personas.${p.id}.description`, { defaultValue: p.description })}
            </span>
          </button>
        ))}
      </div>
      <div className="dialog__actions">
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          {t("common.cancel")}
        </button>
        <button type="button" className="btn btn--primary" onClick={onConfirm} disabled={!picked}>
          {t("common.confirm")}
        </button>
      </div>
    </dialog>
  );
}
