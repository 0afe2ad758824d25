/**
 * Offered when it helps (issue 37): right after a video starts, a video taking minutes. With the
 * permission already given, this device's subscription is renewed silently (logout ended it on the
 * server); refused or "not now", nothing is asked again for two weeks.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "../i18n";
import { enablePush, pushState, type PushState } from "./subscribe";
import "./PushOffer.css";

const DISMISSED_KEY = "pushOfferDismissedAt";
const ASK_AGAIN_MS = 14 * 24 * 3600_000;

function dismissedLately(): boolean {
  try {
    return Date.now() - Number(localStorage.getItem(DISMISSED_KEY) ?? 0) < ASK_AGAIN_MS;
  } catch {
    return false;
  }
}

/** Shown from the first time `started` (the job just started) is set, until put away; the job may end first. */
export function PushOffer({ started }: { started: string | undefined }) {
  const { t } = useTranslation();
  const [state, setState] = useState<PushState>(pushState);
  const [hidden, setHidden] = useState(dismissedLately);
  const [offered, setOffered] = useState(false);

  useEffect(() => {
    if (!started) return;
    setOffered(true);
    // Permission given before: this device's subscription is renewed (logout ended it on the server).
    if (pushState() === "granted") void enablePush(currentLanguage()).catch(() => undefined);
  }, [started]);

  if (!offered) return null;

  if (state === "unsupported" || state === "denied" || (state === "default" && hidden)) {
    return state === "denied" ? <p className="push-offer__note">{t("pwa.notifyBlocked")}</p> : null;
  }
  if (state === "granted")
    return (
      <p className="push-offer__note" data-testid="push-on">
        {t("pwa.notifyOn")}
      </p>
    );
  const later = () => {
    try {
      localStorage.setItem(DISMISSED_KEY, String(Date.now()));
    } catch {
      // No storage: the offer comes back with the next video.
    }
    setHidden(true);
  };
  return (
    <div className="push-offer" data-testid="push-offer">
      <p>{t("pwa.notifyAsk")}</p>
      <div className="push-offer__actions">
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => void enablePush(currentLanguage()).then(setState, () => setState(pushState()))}
        >
          {t("pwa.notifyYes")}
        </button>
        <button type="button" className="btn btn--ghost" onClick={later}>
          {t("pwa.notifyNo")}
        </button>
      </div>
    </div>
  );
}
