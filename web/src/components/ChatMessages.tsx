/**
 * The thread of a chat screen (Text AI, the Doctor): each message with copy, regenerate on the last
 * reply, and the reply on its way (its words as they are pushed, dots until the first).
 */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ChatMessage } from "../api/chat";
import { MessageActions } from "./MessageActions";
import "./ChatScreen.css";

/** What useChatThread holds: the messages, whether a reply is on its way, and its words so far. */
interface Thread {
  messages: ChatMessage[];
  loading: boolean;
  streamed: string;
}

interface Props {
  thread: Thread;
  onRegenerate(): void;
  /** Who answers, read before each reply by screen readers. */
  speaker?: string;
  live?: boolean;
  /** The reply on its way: its bubble's class, test id, what it shows before the first words and after them. */
  pending: { className: string; testId?: string; waiting: ReactNode; extra?: ReactNode };
}

export function ChatMessages({ thread, onRegenerate, speaker, live, pending }: Props) {
  const { t } = useTranslation();
  const { messages, loading, streamed } = thread;
  const last = messages.length - 1;
  return (
    <ol className="chat-list" aria-live={live ? "polite" : undefined}>
      {messages.map((m, i) => (
        <li key={m.id ?? i} className={`bubble bubble--${m.type}`} data-testid={`message-${m.type}`}>
          {speaker && <span className="visually-hidden">{m.type === "user" ? t("common.you") : speaker}: </span>}
          <span dir="auto">{m.content}</span>
          <MessageActions text={m.content} onRegenerate={m.type === "ai" && i === last && !loading ? onRegenerate : undefined} />
        </li>
      ))}
      {loading && (
        <li className={`bubble bubble--ai ${pending.className}`} data-testid={pending.testId}>
          {streamed ? <span dir="auto">{streamed}</span> : pending.waiting}
          {pending.extra}
        </li>
      )}
    </ol>
  );
}

/** The three dots of a reply being written. */
export function TypingDots({ label }: { label?: string }) {
  return (
    <span className="typing" aria-label={label} aria-hidden={label ? undefined : true}>
      <span />
      <span />
      <span />
    </span>
  );
}
