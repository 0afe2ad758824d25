/**
 * Stable machine-readable error codes carried beside the text, one per distinct error a user can
 * see: the web shows its own translated text per code (web/src/api/errors.ts), never the English
 * server text.
 */
export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "invalid_credentials",
  "account_inactive",
  "admin_login_failed",
  "admin_session_required",
  "forbidden",
  "not_found",
  "receipt_expired",
  "conflict",
  "phone_taken",
  "package_already_active",
  "idempotency_conflict",
  "insufficient_coins",
  "daily_cap_reached",
  "payment_declined",
  "payment_pending",
  "purchases_unavailable",
  "phone_unproven",
  "renewal_not_yours",
  "code_invalid",
  "code_expired",
  "code_used_up",
  "code_already_redeemed",
  "too_large",
  "unsupported_media_type",
  "rate_limited",
  "too_many_logins",
  "too_many_signups",
  "too_many_codes",
  "too_many_code_tries",
  "too_many_number_tries",
  "phone_country",
  "phone_code_invalid",
  "phone_code_expired",
  "phone_code_attempts",
  "phone_code_missing",
  "unavailable",
  "timeout",
  "ai_busy",
  "ai_unavailable",
  "ai_refused",
  "job_failed",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes whose text already had a key of its own (SPEC §8 texts); every other code's is `errors.codes.<code>`. */
const SPEC_TEXT_KEYS: Partial<Record<ErrorCode, string>> = {
  invalid_credentials: "errors.invalidCredentials",
  phone_taken: "errors.phoneTaken",
  insufficient_coins: "errors.insufficientCoins",
  package_already_active: "admin.assign.duplicate",
  unavailable: "errors.serviceUnavailable",
};

/** The i18n key (shared/src/i18n) of each code's text, which the web shows instead of the server's English. */
export const ERROR_TEXT_KEYS = Object.fromEntries(
  ERROR_CODES.map((code) => [code, SPEC_TEXT_KEYS[code] ?? `errors.codes.${code}`]),
) as Record<ErrorCode, string>;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
