/**
 * The text a screen shows for a failed call: the translation of the server's stable code, never
 * the server's English `error` text, so an Arabic screen stays Arabic whatever the server says.
 */
import i18n from "i18next";
import { ERROR_TEXT_KEYS, retryWhen, type Language } from "@storefront/shared";
import { ensureFullCatalog } from "../i18n";
import { ApiError } from "./client";

/** Figures some texts carry (402: the coins needed and available, or the daily cap and today's spending). */
export interface ErrorTextValues {
  needed?: number;
  available?: number;
}

/** The code's translated text, or the screen's own (translated) fallback for no code or no API error. */
export function errorMessage(error: unknown, fallback: string, defaults: ErrorTextValues = {}): string {
  const code = error instanceof ApiError ? error.code : undefined;
  if (!(error instanceof ApiError) || !code) return fallback;
  const text = i18n.t(ERROR_TEXT_KEYS[code], {
    needed: error.body.needed ?? defaults.needed ?? 1,
    available: error.body.available ?? defaults.available ?? 0,
    cap: error.body.cap ?? 0,
    spent: error.body.spent ?? 0,
  });
  // Every refusal to retry later says when (the server's Retry-After, in seconds).
  const seconds = error.body.retryAfter;
  if (error.status !== 429 || typeof seconds !== "number") return text;
  const language: Language = i18n.language === "ar" ? "ar" : "en";
  return `${text} ${i18n.t("errors.tryAgainWhen", { when: retryWhen(language, seconds) })}`;
}

/**
 * `errorMessage` once the full catalog is loaded: the public pages (login, signup) start with the
 * public texts only, which leave the error texts out (web/vite.plugins.ts).
 */
export async function errorMessageLoaded(error: unknown, fallback: string, defaults: ErrorTextValues = {}): Promise<string> {
  await ensureFullCatalog().catch(() => undefined);
  return errorMessage(error, fallback, defaults);
}
