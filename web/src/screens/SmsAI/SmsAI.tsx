/**
 * SPEC §2/§4/§5/§8 SMS AI: a conversation panel and a configuration panel (backend/local toggle,
 * sender id, recipient, message with the 400 / 210 limit and counter, Send, Clear). History is
 * kept per user in browser storage; local mode answers in the browser with the shared engine.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LIMITS } from "@storefront/shared";
import { localReply } from "@storefront/shared/reply-engine";
import { ApiError } from "../../api/client";
import { smsAiResponse, smsLearnedResponse, smsServerHistory } from "../../api/sms";
import { announceWalletUpdate } from "../../api/wallet";
import { BackButton, PageHeader } from "../../components/Layout";
import { Switch } from "../../components/Switch";
import { useToast } from "../../components/Toasts";
import { useUser } from "../../hooks/useAuth";
import { useFormat } from "../../hooks/useFormat";
import { readStored, useStoredState, writeStored } from "../../hooks/useStoredState";
import "./SmsAI.css";

export interface SmsMessage {
  role: "user" | "assistant";
  message: string;
  timestamp: string;
  sender: string;
  recipient: string;
}

const BACKEND_KEY = "smsUseBackendAI";
const historyKey = (userId: string) => `smsConversation_${userId}`;

export default function SmsAI() {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const format = useFormat();
  const [useBackend, setUseBackend] = useStoredState<boolean>(BACKEND_KEY, false);
  const [messages, setMessages] = useState<SmsMessage[]>(() => readStored<SmsMessage[]>(historyKey(user.id), []));
  const [sender, setSender] = useState("AIStore");
  const [recipient, setRecipient] = useState(user.phone);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState("");
  const limit = format.language === "ar" ? LIMITS.smsCharsArabic : LIMITS.smsCharsEnglish;
  const length = Array.from(text).length;

  useEffect(() => {
    writeStored(historyKey(user.id), messages);
  }, [messages, user.id]);
  // With the backend AI on and nothing stored in this browser, show the server's SMS history.
  useEffect(() => {
    if (!useBackend || messages.length > 0) return;
    let cancelled = false;
    smsServerHistory(user.id).then(
      (history) => {
        if (!cancelled && history.length > 0) setMessages((current) => (current.length > 0 ? current : history));
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
    // Only when the toggle or the user changes: later sends fill `messages` themselves.
  }, [useBackend, user.id]);
  // The newest message stays in view, unless the user scrolled up to read older ones.
  const listRef = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);
  useEffect(() => {
    const list = listRef.current;
    if (list && pinned.current) list.scrollTop = list.scrollHeight;
  }, [messages]);

  async function send() {
    if (sending) return;
    if (!recipient.trim()) return setError(t("sms.required", { field: t("sms.recipient") }));
    if (!text.trim()) return setError(t("sms.required", { field: t("sms.message") }));
    if (length > limit) return setError(t("sms.tooLong"));
    setError("");
    setSending(true);
    const body = text.trim();
    const mine: SmsMessage = { role: "user", message: body, timestamp: new Date().toISOString(), sender, recipient };
    const withMine = [...messages, mine];
    setMessages(withMine);
    const local = () =>
      localReply({
        message: body,
        language: format.language,
        history: messages.slice(-LIMITS.smsLocalContext).map((m) => ({ role: m.role, content: m.message })),
      });
    try {
      let reply: string;
      if (useBackend) {
        try {
          reply = await smsAiResponse(
            body,
            messages.slice(-LIMITS.smsBackendContext).map((m) => ({ role: m.role, content: m.message })),
            format.language,
          );
          announceWalletUpdate();
        } catch (err) {
          if (err instanceof ApiError && err.status === 402) {
            setMessages(messages);
            const message = t("sms.insufficient", { needed: err.body.needed ?? 1, available: err.body.available ?? 0 });
            setError(message);
            toast.error(message);
            return;
          }
          if (!(err instanceof ApiError)) throw err;
          // Another backend failure: an earlier learned answer if there is one, else the local engine.
          reply = (await smsLearnedResponse(body, format.language).catch(() => null)) ?? (await local());
        }
      } else {
        reply = await local();
      }
      setMessages([
        ...withMine,
        { role: "assistant", message: reply, timestamp: new Date().toISOString(), sender: recipient, recipient: sender },
      ]);
      setText("");
      toast.success(t("sms.sent"));
    } catch {
      setMessages([
        ...withMine,
        {
          role: "assistant",
          message: t("sms.connectionError"),
          timestamp: new Date().toISOString(),
          sender: recipient,
          recipient: sender,
        },
      ]);
      toast.error(t("sms.failed"));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="sms-page">
      <PageHeader title={t("sms.title")} start={<BackButton />} />
      <main id="main" className="sms-page__main">
        <section className="card sms-thread" aria-labelledby="sms-thread-title">
          <h2 id="sms-thread-title">{t("sms.conversation")}</h2>
          <ol
            className="sms-thread__list"
            aria-live="polite"
            ref={listRef}
            data-testid="sms-thread"
            onScroll={(e) => {
              const el = e.currentTarget;
              pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
            }}
          >
            {messages.length === 0 && <li className="empty-state">{t("sms.empty")}</li>}
            {messages.map((m, i) => (
              <li key={i} className={`sms-bubble sms-bubble--${m.role}`} data-testid={`sms-${m.role}`}>
                <span className="sms-bubble__who">{m.role === "user" ? t("common.you") : t("sms.assistant")}</span>
                <span className="sms-bubble__text" dir="auto">
                  {m.message}
                </span>
                <span className="sms-bubble__time">{format.time(m.timestamp)}</span>
              </li>
            ))}
          </ol>
        </section>
        <form
          className="card sms-config"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
          noValidate
        >
          <h2>{t("sms.config")}</h2>
          <Switch checked={useBackend} onChange={setUseBackend} label={t("sms.useBackend")} describedBy="sms-backend-hint" />
          <p id="sms-backend-hint" className="field-hint" data-testid="sms-backend-hint">
            {useBackend ? t("sms.useBackendHintOn") : t("sms.useBackendHint")}
          </p>
          <div className="field">
            <label htmlFor="sms-sender">{t("sms.senderId")}</label>
            <input id="sms-sender" className="input" value={sender} onChange={(e) => setSender(e.target.value)} dir="ltr" />
          </div>
          <div className="field">
            <label htmlFor="sms-recipient">{t("sms.recipient")}</label>
            <input
              id="sms-recipient"
              className="input"
              type="tel"
              dir="ltr"
              value={recipient}
              onChange={(e) => setRecipient(e.target.value)}
              required
            />
          </div>
          <div className="field">
            <label htmlFor="sms-message">{t("sms.message")}</label>
            <textarea
              id="sms-message"
              className="textarea"
              value={text}
              placeholder={t("sms.messagePlaceholder")}
              onChange={(e) => setText(e.target.value)}
              aria-invalid={length > limit || undefined}
              aria-describedby="sms-counter"
              required
            />
            <span id="sms-counter" className={length > limit ? "field-error" : "field-hint"} data-testid="sms-counter">
              {t("sms.counter", { n: format.number(length), max: format.number(limit) })}
            </span>
          </div>
          {error && (
            <div className="alert alert--error" role="alert">
              {error}
            </div>
          )}
          <div className="sms-config__actions">
            <button type="submit" className="btn btn--primary" disabled={sending}>
              {sending ? t("sms.sending") : t("sms.send")}
            </button>
            <button type="button" className="btn btn--secondary" onClick={() => setMessages([])}>
              {t("sms.clear")}
            </button>
          </div>
        </form>
      </main>
    </div>
  );
}
