/**
 * The Doctor's thread: the progress bar while a reply is on its way, the disclaimer card, the
 * consultation (the reply's words as they are written, with Stop; Retry on the last reply), and
 * the scroll-to-bottom button once the reader has scrolled up.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MEDICAL_DISCLAIMER } from "@storefront/shared";
import { ChatMessages, TypingDots } from "../../components/ChatMessages";
import { ArrowDownIcon, StopIcon, WarningIcon } from "../../components/toolIcons";
import type { ConversationScreen } from "../../hooks/useConversationScreen";
import { useSocketConnected } from "../../hooks/useServerEvent";

export function DoctorThread({ screen, onRetry }: { screen: ConversationScreen; onRetry(): void }) {
  const { t } = useTranslation();
  const { messages, loading, streamed } = screen;
  const live = useSocketConnected();
  const [atBottom, setAtBottom] = useState(true);
  const threadRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (atBottom) threadRef.current?.scrollTo({ top: threadRef.current.scrollHeight });
  }, [messages, loading, streamed, atBottom]);
  const scrollToBottom = () => threadRef.current?.scrollTo({ top: threadRef.current.scrollHeight, behavior: "smooth" });

  return (
    <>
      {loading && (
        <div className="doctor__progress" role="progressbar" aria-label={t("doctor.waiting")}>
          <span />
        </div>
      )}
      <main
        // Whether the reply's words can arrive as they are written (the live connection is up).
        data-live={live ? "on" : "off"}
        id="main"
        className="chat-screen__thread"
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
          <div className="chat-screen__empty">
            <h2>{t("doctor.emptyTitle")}</h2>
            <p>{t("doctor.emptyText")}</p>
          </div>
        ) : (
          <ChatMessages
            thread={screen}
            onRegenerate={onRetry}
            live
            pending={{
              className: "doctor__typing",
              testId: "doctor-pending",
              waiting: (
                <>
                  <TypingDots />
                  <span>{t("doctor.typing")}</span>
                </>
              ),
              extra: (
                <button type="button" className="btn btn--secondary btn--small" onClick={screen.stop}>
                  <StopIcon size={14} /> {t("doctor.stop")}
                </button>
              ),
            }}
          />
        )}
      </main>
      {!atBottom && (
        <button type="button" className="doctor__to-bottom" onClick={scrollToBottom} aria-label={t("doctor.scrollToBottom")}>
          <ArrowDownIcon size={18} />
        </button>
      )}
    </>
  );
}
