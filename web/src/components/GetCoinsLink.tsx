/** The way to coins, shown beside every "not enough coins" message of the paid screens. */
import { useTranslation } from "react-i18next";
import { ApiError } from "../api/client";
import { AppLink } from "./AppLink";

export function GetCoinsLink({ error }: { error?: unknown } = {}) {
  const { t } = useTranslation();
  if (isOverDailyCap(error)) {
    return (
      <AppLink to="/usage" className="get-coins-link" data-testid="spending-settings-link">
        {t("usage.limits.link")}
      </AppLink>
    );
  }
  return (
    <AppLink to="/get-coins" className="get-coins-link" data-testid="get-coins-link">
      {t("getCoins.link")}
    </AppLink>
  );
}

/** True for the 402 answers of a paid call: not enough coins, or past the daily spending cap. */
export function isShortOfCoins(error: unknown): boolean {
  return error instanceof ApiError && (error.code === "insufficient_coins" || isOverDailyCap(error));
}

/** The 402 of a charge past the user's daily spending cap: the way on is their settings, not more coins. */
function isOverDailyCap(error: unknown): boolean {
  return error instanceof ApiError && error.code === "daily_cap_reached";
}
