/** A chat screen's question box: Enter sends, Shift+Enter starts a new line (and Enter ends an IME's word). */
import type { RefObject, TextareaHTMLAttributes } from "react";
import "./ChatScreen.css";

interface Props extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id"> {
  id: string;
  /** Read by screen readers and voice control. */
  label: string;
  /** The question being written (useConversationScreen's). */
  box: { input: string; setInput(value: string): void; inputRef: RefObject<HTMLTextAreaElement | null> };
  onSend(): void;
}

export function ChatInput({ id, label, box, onSend, ...rest }: Props) {
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={id}
        ref={box.inputRef}
        className="textarea composer__input"
        rows={1}
        value={box.input}
        onChange={(e) => box.setInput(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            onSend();
          }
        }}
        {...rest}
      />
    </>
  );
}
