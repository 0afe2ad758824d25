/**
 * SPEC §2/§4/§5 Doctor: dark theme and skip link, disclaimer card, consultations with search and
 * relative times, typing indicator, Stop, Retry, scroll-to-bottom, progress bar, quick replies and
 * the 2000-character counter.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { cleanMarkdown, displayConversationTitle, doctorConversationTitle, LIMITS, MEDICAL_DISCLAIMER } from "@storefront/shared";
import { sendChat, type ChatMessage } from "../../api/chat";
import { listConversations, loadConversation, saveConversation, type ConversationSummary } from "../../api/conversations";
import { announceWalletUpdate } from "../../api/wallet";
import { BackButton, DrawerClose, DrawerOverlay, PageHeader, SidebarToggle } from "../../components/Layout";
import { LanguageToggle } from "../../components/LanguageToggle";
import { useToast } from "../../components/Toasts";
import { WalletBadge } from "../../components/WalletBadge";
import { useAutoGrow } from "../../hooks/useAutoGrow";
import { useChatErrors } from "../../hooks/useChatErrors";
import { MessageActions } from "../../components/MessageActions";
import { useUser } from "../../hooks/useAuth";
import { useDrawer } from "../../hooks/useDrawer";
import { useFormat } from "../../hooks/useFormat";
import { useMediaQuery } from "../../hooks/useMediaQuery";
import "../TextAI/TextAI.css";
import "./Doctor.css";

const QUICK_REPLIES = ["headache", "fever", "sleep", "diet"] as const;
const newId = (prefix: string) => `${prefix}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;

export default function Doctor() {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const format = useFormat();
  const queryClient = useQueryClient();
  const wide = useMediaQuery("(min-width: 769px)");
  const [sidebarOpen, setSidebarOpen] = useState(wide);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [input, setInput] = useState("");
  const [loading, setLoading] = useState(false);
  const [search, setSearch] = useState("");
  const [atBottom, setAtBottom] = useState(true);
  const [failure, setFailure] = useState("");
  const chatError = useChatErrors();
  const abort = useRef<AbortController | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const threadRef = useRef<HTMLDivElement>(null);
  useAutoGrow(inputRef, input);
  const sidebarRef = useRef<HTMLElement>(null);
  useDrawer(sidebarRef, sidebarOpen, !wide, () => setSidebarOpen(false));
  useEffect(() => {
    setSidebarOpen(wide);
  }, [wide]);

  const listKey = ["conversations", "doctor", user.id];
  const conversations = useQuery({ queryKey: listKey, queryFn: () => listConversations(user.id, "doctor") });

  const scrollToBottom = () => threadRef.current?.scrollTo({ top: threadRef.current.scrollHeight, behavior: "smooth" });
  useEffect(() => {
    if (atBottom) threadRef.current?.scrollTo({ top: threadRef.current.scrollHeight });
  }, [messages, loading, atBottom]);

  const length = Array.from(input).length;
  const tooLong = length > LIMITS.doctorMessageChars;
  const showCounter = length > LIMITS.doctorMessageChars * LIMITS.doctorCounterThreshold;

  async function ask(text: string, history: ChatMessage[]) {
    const id = conversationId ?? newId("conv");
    if (!conversationId) setConversationId(id);
    const userMessage: ChatMessage = { id: newId("msg"), type: "user", content: text, timestamp: new Date().toISOString() };
    const withUser = [...history, userMessage];
    setMessages(withUser);
    setFailure("");
    setLoading(true);
    const controller = new AbortController();
    abort.current = controller;
    let reply: ChatMessage;
    try {
      const answer = await sendChat(
        {
          message: text,
          userId: user.id,
          conversationId: id,
          avatarType: "doctor",
          conversationHistory: history,
          language: format.language,
        },
        controller.signal,
      );
      reply = { id: newId("msg"), type: "ai", content: cleanMarkdown(answer), timestamp: new Date().toISOString() };
      announceWalletUpdate();
    } catch (error) {
      if (controller.signal.aborted) return;
      // A failed attempt is not a consultation: nothing is saved, the question goes back in the box
      // and the reason (with the price and the balance on a 402) shows above it.
      setMessages(history);
      setInput(text);
      setFailure(chatError(error, t("errors.doctorReplyFailed")));
      if (!history.length) setConversationId(null);
      return;
    } finally {
      if (abort.current === controller) {
        abort.current = null;
        setLoading(false);
      }
    }
    const all = [...withUser, reply];
    setMessages(all);
    const firstUser = all.find((m) => m.type === "user")?.content;
    const title = doctorConversationTitle(firstUser);
    await saveConversation({ userId: user.id, conversationId: id, title, messages: all, avatarType: "doctor" }).catch(
      () => undefined,
    );
    queryClient.setQueryData<ConversationSummary[]>(listKey, (list = []) => [
      { id, title, lastMessage: reply.content, timestamp: reply.timestamp },
      ...list.filter((c) => c.id !== id),
    ]);
  }

  function send() {
    const text = input.trim();
    if (!text || loading || tooLong) return;
    setInput("");
    void ask(text, messages);
  }

  function stop() {
    abort.current?.abort();
    abort.current = null;
    setLoading(false);
  }

  function retry() {
    const lastUser = messages
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => m.type === "user")
      .pop();
    if (!lastUser || loading) return;
    void ask(lastUser.m.content, messages.slice(0, lastUser.i));
  }

  async function open(id: string) {
    try {
      setMessages(await loadConversation(id, user.id));
      setConversationId(id);
      if (!wide) setSidebarOpen(false);
    } catch {
      toast.error(t("errors.conversationLoadFailed"));
    }
  }

  const visible = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (conversations.data ?? []).filter(
      (c) => !q || c.title.toLowerCase().includes(q) || (c.lastMessage ?? "").toLowerCase().includes(q),
    );
  }, [conversations.data, search]);

  const lastIndex = messages.length - 1;
  return (
    <div className="doctor theme-dark">
      <a href="#doctor-input" className="skip-link">
        {t("doctor.skipLink")}
      </a>
      <aside
        ref={sidebarRef}
        className={`text-ai__sidebar doctor__sidebar${wide ? "" : " drawer--modal"}`}
        hidden={!sidebarOpen}
        aria-label={t("doctor.conversations")}
        role={wide ? undefined : "dialog"}
        aria-modal={wide ? undefined : true}
      >
        <DrawerClose onClose={() => setSidebarOpen(false)} />
        <div className="text-ai__sidebar-top">
          <h2 className="text-ai__sidebar-title">{t("doctor.conversations")}</h2>
          <button
            type="button"
            className="btn btn--primary btn--small"
            onClick={() => {
              setMessages([]);
              setConversationId(null);
              inputRef.current?.focus();
            }}
          >
            {t("doctor.newConsultation")}
          </button>
        </div>
        <input
          type="search"
          className="input"
          placeholder={t("doctor.search")}
          aria-label={t("doctor.searchLabel")}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <ul className="text-ai__list">
          {visible.map((c) => (
            <li key={c.id} className={c.id === conversationId ? "text-ai__item text-ai__item--active" : "text-ai__item"}>
              <button type="button" className="text-ai__item-open" onClick={() => void open(c.id)}>
                <span className="text-ai__item-title" dir="auto">
                  {displayConversationTitle(c.title, t("doctor.titlePrefix"))}
                </span>
                <span className="text-ai__item-date">
                  {format.relative(c.timestamp ?? c.updated_at ?? c.created_at ?? "")}
                  {c.lastMessage && <span dir="auto"> · {c.lastMessage}</span>}
                </span>
              </button>
            </li>
          ))}
          {visible.length === 0 && <li className="text-ai__none">{t("doctor.noConversations")}</li>}
        </ul>
      </aside>
      {sidebarOpen && !wide && <DrawerOverlay onClose={() => setSidebarOpen(false)} />}
      <div className="text-ai__main">
        <PageHeader
          title={
            <>
              <span aria-hidden="true">🩺 </span>
              {t("doctor.title")}
            </>
          }
          start={
            <>
              <SidebarToggle open={sidebarOpen} onToggle={() => setSidebarOpen((o) => !o)} label={t("doctor.sidebarToggle")} />
              <BackButton />
            </>
          }
          end={
            <>
              <LanguageToggle />
              <WalletBadge />
            </>
          }
        />
        {loading && (
          <div className="doctor__progress" role="progressbar" aria-label={t("doctor.waiting")}>
            <span />
          </div>
        )}
        <main
          id="main"
          className="text-ai__thread"
          ref={threadRef}
          onScroll={(e) => {
            const el = e.currentTarget;
            setAtBottom(el.scrollHeight - el.scrollTop - el.clientHeight < 40);
          }}
        >
          <section className="doctor__disclaimer" role="note" aria-labelledby="disclaimer-title">
            <h2 id="disclaimer-title">
              <span aria-hidden="true">⚠️ </span>
              {t("doctor.disclaimerTitle")}
            </h2>
            <p>{t("doctor.disclaimer", { defaultValue: MEDICAL_DISCLAIMER })}</p>
          </section>
          {messages.length === 0 ? (
            <div className="text-ai__empty">
              <h2>{t("doctor.emptyTitle")}</h2>
              <p>{t("doctor.emptyText")}</p>
            </div>
          ) : (
            <ol className="chat-list" aria-live="polite">
              {messages.map((m, i) => (
                <li key={m.id ?? i} className={`bubble bubble--${m.type}`} data-testid={`message-${m.type}`}>
                  <span dir="auto">{m.content}</span>
                  <MessageActions
                    text={m.content}
                    onRegenerate={m.type === "ai" && i === lastIndex && !loading ? retry : undefined}
                  />
                </li>
              ))}
              {loading && (
                <li className="bubble bubble--ai doctor__typing">
                  <span className="typing" aria-hidden="true">
                    <span />
                    <span />
                    <span />
                  </span>
                  <span>{t("doctor.typing")}</span>
                  <button type="button" className="btn btn--secondary btn--small" onClick={stop}>
                    ■ {t("doctor.stop")}
                  </button>
                </li>
              )}
            </ol>
          )}
        </main>
        {!atBottom && (
          <button type="button" className="doctor__to-bottom" onClick={scrollToBottom} aria-label={t("doctor.scrollToBottom")}>
            ↓
          </button>
        )}
        <form
          className="doctor__composer"
          onSubmit={(e) => {
            e.preventDefault();
            send();
          }}
        >
          {failure && (
            <p className="alert alert--error doctor__failure" role="alert" data-testid="doctor-failure">
              {failure}
            </p>
          )}
          <div className="doctor__chips" role="group" aria-label={t("doctor.quickRepliesLabel")}>
            {QUICK_REPLIES.map((key) => (
              <button key={key} type="button" className="chip" onClick={() => setInput(t(`doctor.quickReplies.${key}`))}>
                {t(`doctor.quickReplies.${key}`)}
              </button>
            ))}
          </div>
          <div className="composer doctor__row">
            <label htmlFor="doctor-input" className="visually-hidden">
              {t("doctor.inputLabel")}
            </label>
            <textarea
              id="doctor-input"
              ref={inputRef}
              className="textarea composer__input"
              rows={1}
              value={input}
              placeholder={t("doctor.placeholder")}
              aria-invalid={tooLong || undefined}
              aria-describedby="doctor-counter"
              onChange={(e) => setInput(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  send();
                }
              }}
            />
            <button type="submit" className="btn btn--primary composer__send" disabled={loading || tooLong || !input.trim()}>
              {t("common.send")}
            </button>
          </div>
          <div id="doctor-counter" className="doctor__counter" aria-live="polite">
            {showCounter && (
              <span className={tooLong ? "doctor__counter--over" : ""}>
                {t("doctor.counter", { n: format.number(length), max: format.number(LIMITS.doctorMessageChars) })}
              </span>
            )}
            {tooLong && <span className="doctor__too-long">{t("doctor.tooLong")}</span>}
          </div>
        </form>
      </div>
    </div>
  );
}
