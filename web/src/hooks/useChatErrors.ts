import { useTranslation } from "react-i18next";
import { errorMessage } from "../api/errors";

/** SPEC §8 text for a failed paid call: the code's text (402 with its figures), or the screen's own fallback. */
export function useChatErrors() {
  // Re-renders the caller when the language changes.
  useTranslation();
  return (error: unknown, fallback: string): string => errorMessage(error, fallback);
}
