/** The conversation panel: every SMS with who sent it and when, the newest kept in view unless the user scrolled up. */
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "../../hooks/useFormat";
import type { SmsMessage } from "./useSmsConversation";

export function SmsThread({ messages }: { messages: SmsMessage[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const listRef = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);
  useEffect(() => {
    const list = listRef.current;
    if (list && pinned.current) list.scrollTop = list.scrollHeight;
  }, [messages]);

  return (
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
  );
}
