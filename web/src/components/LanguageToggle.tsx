import { useTranslation } from "react-i18next";
import { toggleLanguage } from "../i18n";
import { GlobeIcon } from "./icons";

/**
 * Switches en ⇄ ar; the label names the language it switches to, in that language, so the button
 * carries that language's `lang` (screen readers pronounce it right; checks see it is on purpose).
 * Its name is that visible word (what a voice control user says, WCAG 2.5.3); what it does is the
 * tooltip, in the interface's language.
 */
export function LanguageToggle({ className = "" }: { className?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <button
      type="button"
      lang={i18n.language === "ar" ? "en" : "ar"}
      className={`btn btn--ghost language-toggle ${className}`}
      onClick={() => void toggleLanguage()}
      title={t("language.switchTo")}
      data-testid="language-toggle"
    >
      <GlobeIcon size={18} /> {t("language.other")}
    </button>
  );
}
