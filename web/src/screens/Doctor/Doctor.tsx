/**
 * SPEC §2/§4/§5 Doctor: dark theme and skip link, disclaimer card, consultations with search and
 * relative times, the reply streamed as it is written (typing indicator before the first words),
 * Stop, Retry, scroll-to-bottom, progress bar, quick replies and the 2000-character counter.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { displayConversationTitle, doctorConversationTitle, LIMITS, MEDICAL_DISCLAIMER, priceOf } from "@storefront/shared";
import { listConversations, loadConversation, saveConversation, type ConversationSummary } from "../../api/conversations";
import { ConversationCost, ConversationSidebar } from "../../components/ConversationSidebar";
import { GetCoinsLink, isShortOfCoins } from "../../components/GetCoinsLink";
import { BackButton, PageHeader, SidebarToggle } from "../../components/Layout";
import { LanguageToggle } from "../../components/LanguageToggle";
import { MessageActions } from "../../components/MessageActions";
import { ArrowDownIcon, StethoscopeIcon, StopIcon, WarningIcon } from "../../components/toolIcons";
import { useToast } from "../../components/Toasts";
import { WalletBadge } from "../../components/WalletBadge";
import { useAutoGrow } from "../../hooks/useAutoGrow";
import { useUser } from "../../hooks/useAuth";
import { useChatErrors } from "../../hooks/useChatErrors";
import { useChatThread } from "../../hooks/useChatThread";
import { useFormat } from "../../hooks/useFormat";
import { useMediaQuery } from "../../hooks/useMediaQuery";
import { useSocketConnected } from "../../hooks/useServerEvent";
import "../TextAI/TextAI.css";
import "./Doctor.css";

const QUICK_REPLIES = ["headache", "fever", "sleep", "diet"] as const;
const newConversationId = () => `conv_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;

export default function Doctor() {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const format = useFormat();
  const queryClient = useQueryClient();
  const wide = useMediaQuery("(min-width: 769px)");
  const [sidebarOpen, setSidebarOpen] = useState(wide);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const { messages, setMessages, loading, streamed, ask, stop, lastQuestion } = useChatThread();
  const live = useSocketConnected();
  const [input, setInput] = useState("");
  const [search, setSearch] = useState("");
  const [atBottom, setAtBottom] = useState(true);
  const [failure, setFailure] = useState("");
  /** The 402 behind the failure, if it was one: the way on (coins, or the spending settings) is linked beside it. */
  const [shortOfCoins, setShortOfCoins] = useState<unknown>(null);
  const chatError = useChatErrors();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const threadRef = useRef<HTMLDivElement>(null);
  useAutoGrow(inputRef, input);
  useEffect(() => {
    setSidebarOpen(wide);
  }, [wide]);

  const listKey = ["conversations", "doctor", user.id];
  const conversations = useQuery({ queryKey: listKey, queryFn: () => listConversations(user.id, "doctor") });

  const scrollToBottom = () => threadRef.current?.scrollTo({ top: threadRef.current.scrollHeight, behavior: "smooth" });
  useEffect(() => {
    if (atBottom) threadRef.current?.scrollTo({ top: threadRef.current.scrollHeight });
  }, [messages, loading, streamed, atBottom]);

  const length = Array.from(input).length;
  const cost = useMemo(() => priceOf({ feature: "doctor", message: input }), [input]);
  const tooLong = length > LIMITS.doctorMessageChars;
  const showCounter = length > LIMITS.doctorMessageChars * LIMITS.doctorCounterThreshold;

  async function consult(text: string, history: typeof messages) {
    const id = conversationId ?? newConversationId();
    setFailure("");
    const result = await ask({
      text,
      history,
      conversationId: id,
      avatarType: "doctor",
      language: format.language,
      userId: user.id,
    });
    if (!result.ok) {
      // A failed attempt is not a consultation: nothing is saved, the question goes back in the box
      // and the reason (with the price and the balance on a 402) shows above it.
      setInput(text);
      if ("error" in result) {
        setFailure(chatError(result.error, t("errors.doctorReplyFailed")));
        setShortOfCoins(isShortOfCoins(result.error) ? result.error : null);
      }
      return;
    }
    setConversationId(id);
    const firstUser = result.all.find((m) => m.type === "user")?.content;
    const title = doctorConversationTitle(firstUser);
    await saveConversation({ userId: user.id, conversationId: id, title, messages: result.all, avatarType: "doctor" }).catch(
      () => undefined,
    );
    queryClient.setQueryData<ConversationSummary[]>(listKey, (list = []) => [
      { id, title, lastMessage: result.reply.content, timestamp: result.reply.timestamp },
      ...list.filter((c) => c.id !== id),
    ]);
    // The server's figures (the conversation's cost among them) replace the optimistic entry.
    void queryClient.invalidateQueries({ queryKey: listKey });
  }

  function send() {
    const text = input.trim();
    if (!text || loading || tooLong) return;
    setInput("");
    void consult(text, messages);
  }

  function retry() {
    const last = lastQuestion();
    if (last && !loading) void consult(last.text, last.history);
  }

  async function open(id: string) {
    try {
      setMessages(await loadConversation(id, user.id));
      setConversationId(id);
      setFailure("");
      if (!wide) setSidebarOpen(false);
    } catch {
      toast.error(t("errors.conversationLoadFailed"));
    }
  }

  const visible = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (conversations.data ?? [])
      .filter((c) => !q || c.title.toLowerCase().includes(q) || (c.lastMessage ?? "").toLowerCase().includes(q))
      .map((c) => ({
        id: c.id,
        title: displayConversationTitle(c.title, t("doctor.titlePrefix")),
        detail: (
          <>
            {format.relative(c.timestamp ?? c.updated_at ?? c.created_at ?? "")}
            {c.coinsSpent !== undefined && <ConversationCost coins={c.coinsSpent} />}
            {c.lastMessage && <span dir="auto"> · {c.lastMessage}</span>}
          </>
        ),
      }));
  }, [conversations.data, search, format, t]);

  const lastIndex = messages.length - 1;
  return (
    <div className="doctor theme-dark">
      <a href="#doctor-input" className="skip-link">
        {t("doctor.skipLink")}
      </a>
      <ConversationSidebar
        wide={wide}
        open={sidebarOpen}
        onClose={() => setSidebarOpen(false)}
        className="doctor__sidebar"
        heading={t("doctor.conversations")}
        newLabel={t("doctor.newConsultation")}
        onNew={() => {
          setMessages([]);
          setConversationId(null);
          setFailure("");
          inputRef.current?.focus();
        }}
        search={search}
        onSearch={setSearch}
        searchPlaceholder={t("doctor.search")}
        searchLabel={t("doctor.searchLabel")}
        items={visible}
        activeId={conversationId}
        onOpen={(id) => void open(id)}
        empty={conversations.isPending ? null : t("doctor.noConversations")}
      />
      <div className="text-ai__main">
        <PageHeader
          title={
            <>
              <StethoscopeIcon size={20} className="page-header__icon" />
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
          // Whether the reply's words can arrive as they are written (the live connection is up).
          data-live={live ? "on" : "off"}
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
              <WarningIcon size={18} className="doctor__disclaimer-icon" />
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
                <li className="bubble bubble--ai doctor__typing" data-testid="doctor-pending">
                  {streamed ? (
                    <span dir="auto">{streamed}</span>
                  ) : (
                    <>
                      <span className="typing" aria-hidden="true">
                        <span />
                        <span />
                        <span />
                      </span>
                      <span>{t("doctor.typing")}</span>
                    </>
                  )}
                  <button type="button" className="btn btn--secondary btn--small" onClick={stop}>
                    <StopIcon size={14} /> {t("doctor.stop")}
                  </button>
                </li>
              )}
            </ol>
          )}
        </main>
        {!atBottom && (
          <button type="button" className="doctor__to-bottom" onClick={scrollToBottom} aria-label={t("doctor.scrollToBottom")}>
            <ArrowDownIcon size={18} />
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
              {failure} {shortOfCoins !== null && <GetCoinsLink error={shortOfCoins} />}
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
            {input.trim() && !tooLong && (
              // The server's own price function (shared/src/pricing.ts), at the default table like the other tools' hints.
              <span data-testid="doctor-cost">{t("doctor.cost", { count: cost })}</span>
            )}
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
