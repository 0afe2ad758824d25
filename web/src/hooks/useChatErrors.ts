import { useTranslation } from "react-i18next";
import { ApiError } from "../api/client";

/** SPEC §8 text for a failed paid call: the 402 figures, a 503's retry notice, or the screen's own fallback. */
export function useChatErrors() {
  const { t } = useTranslation();
  return (error: unknown, fallback: string): string => {
    if (error instanceof ApiError && error.status === 402) {
      return t("errors.insufficientCoins", { needed: error.body.needed ?? 1, available: error.body.available ?? 0 });
    }
    // A part of the service is down (or restarting): nothing was charged, a retry soon works.
    if (error instanceof ApiError && error.status === 503) return t("errors.serviceUnavailable");
    return fallback;
  };
}
