import { useTranslation } from "react-i18next";
import { ApiError } from "../api/client";
import { useFormat } from "./useFormat";

/**
 * SPEC §8 text for a failed paid call: on a 402 the price and the balance in words (every paid
 * screen shows it the same way), otherwise the screen's own fallback.
 */
export function useChatErrors() {
  const { t } = useTranslation();
  const format = useFormat();
  return (error: unknown, fallback: string): string => {
    if (error instanceof ApiError && error.status === 402) {
      const needed = Number(error.body.needed ?? 1);
      const available = Number(error.body.available ?? 0);
      return t("errors.insufficientCoins", { needed: format.number(needed), available: format.number(available) });
    }
    return fallback;
  };
}
