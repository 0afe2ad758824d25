/** The notice that a new version of the app is installed: reload into it now, or later (next visit). */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import "./UpdatePrompt.css";

export function UpdatePrompt({ reload }: { reload: () => void }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(true);
  if (!shown) return null;
  return (
    <div className="update-prompt" role="alert" data-testid="update-prompt">
      <p>{t("pwa.updateReady")}</p>
      <div className="update-prompt__actions">
        <button type="button" className="btn btn--primary" onClick={reload}>
          {t("pwa.reload")}
        </button>
        <button type="button" className="btn btn--ghost" onClick={() => setShown(false)}>
          {t("pwa.later")}
        </button>
      </div>
    </div>
  );
}
