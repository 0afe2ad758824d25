/** Copy (every message) and regenerate (the last reply) under a chat message. */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyIcon, RegenerateIcon } from "./toolIcons";

export function MessageActions({ text, onRegenerate }: { text: string; onRegenerate?: (() => void) | undefined }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <span className="message-actions">
      <button
        type="button"
        className="icon-button message-actions__button"
        aria-label={copied ? t("chat.copied") : t("chat.copy")}
        title={copied ? t("chat.copied") : t("chat.copy")}
        onClick={() => {
          void navigator.clipboard?.writeText(text).then(() => setCopied(true));
        }}
      >
        <CopyIcon size={16} />
      </button>
      {onRegenerate && (
        <button
          type="button"
          className="icon-button message-actions__button"
          aria-label={t("chat.regenerate")}
          title={t("chat.regenerate")}
          onClick={onRegenerate}
        >
          <RegenerateIcon size={16} />
        </button>
      )}
      <span className="visually-hidden" aria-live="polite">
        {copied ? t("chat.copied") : ""}
      </span>
    </span>
  );
}
