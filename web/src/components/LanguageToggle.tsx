import { useTranslation } from "react-i18next";
import { toggleLanguage } from "../i18n";

/** Switches en ⇄ ar; the label names the language it switches to, in that language. */
export function LanguageToggle({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`btn btn--ghost language-toggle ${className}`}
      onClick={() => void toggleLanguage()}
      aria-label={t("language.switchTo")}
      data-testid="language-toggle"
    >
      <span aria-hidden="true">🌐</span> {t("language.other")}
    </button>
  );
}
