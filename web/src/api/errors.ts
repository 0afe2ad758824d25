/**
 * The text a screen shows for a failed call: the translation of the server's stable code, never
 * the server's English `error` text, so an Arabic screen stays Arabic whatever the server says.
 */
import i18n from "i18next";
import { ERROR_TEXT_KEYS, retryWhen, type Language, type ServerEvents } from "@storefront/shared";
import { ensureFullCatalog } from "../i18n";
import { ApiError } from "./client";

/** Figures some texts carry (402: the coins needed and available, or the daily cap and today's spending). */
export interface ErrorTextValues {
  needed?: number;
  available?: number;
}

/**
 * A job the screen had stopped waiting for, which then failed (its "job:failed" push): the error its
 * call would have answered (a 402 for a refusal when it ran again, with the push's figures), so a
 * screen shows and handles it as any failed call.
 */
export class JobFailedError extends ApiError {
  constructor(event: ServerEvents["job:failed"]) {
    const { code, error, needed, available, cap, spent } = event;
    const refused = code === "insufficient_coins" || code === "daily_cap_reached";
    super(error, refused ? 402 : 502, { success: false, code, error, needed, available, cap, spent });
    this.name = "JobFailedError";
  }
}

/**
 * The job a failed call leaves running or queued, to be told its end by push: a 504 (the reply is
 * taking longer; the job carries on) or a 503 with `queued: true` (no worker answered: the coins
 * were returned and the job stays queued, charged if it runs).
 */
export function pendingJobOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || typeof error.body.jobId !== "string") return null;
  return error.status === 504 || (error.status === 503 && error.body.queued === true) ? error.body.jobId : null;
}

/** The code's translated text, or the screen's own (translated) fallback for no code or no API error. */
export function errorMessage(error: unknown, fallback: string, defaults: ErrorTextValues = {}): string {
  const code = error instanceof ApiError ? error.code : undefined;
  if (!(error instanceof ApiError) || !code) return fallback;
  if (error.status === 503 && error.body.queued === true && error.body.refunded === true) return i18n.t("errors.queuedRefunded");
  const text = i18n.t(ERROR_TEXT_KEYS[code], {
    needed: error.body.needed ?? defaults.needed ?? 1,
    available: error.body.available ?? defaults.available ?? 0,
    cap: error.body.cap ?? 0,
    spent: error.body.spent ?? 0,
  });
  if (error instanceof JobFailedError) return i18n.t("errors.queuedFailed", { reason: text });
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
