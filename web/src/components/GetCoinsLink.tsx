/** The way to coins, shown beside every "not enough coins" message of the paid screens. */
import { useTranslation } from "react-i18next";
import { ApiError } from "../api/client";
import { AppLink } from "./AppLink";

export function GetCoinsLink() {
  const { t } = useTranslation();
  return (
    <AppLink to="/get-coins" className="get-coins-link" data-testid="get-coins-link">
      {t("getCoins.link")}
    </AppLink>
  );
}

/** True for the 402 "not enough coins" answer of a paid call. */
export function isShortOfCoins(error: unknown): boolean {
  return error instanceof ApiError && error.code === "insufficient_coins";
}
