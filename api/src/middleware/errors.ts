import type { ErrorRequestHandler, RequestHandler } from "express";
import { MulterError } from "multer";
import { ERROR_TEXT_KEYS, MESSAGES, retryWhen, type Language } from "@storefront/shared";
import ar from "@storefront/shared/i18n/ar.json";
import en from "@storefront/shared/i18n/en.json";
import {
  DailyCapError,
  IdempotencyConflictError,
  InsufficientCoinsError,
  LedgerInProgressError,
  UnknownUserError,
} from "@storefront/shared/server";
import { AppError, badRequest, conflict, dailyCapReached, notFound, paymentRequired, tooLarge } from "../errors";
import { requestLanguage } from "../language";
import { dependencyFailure } from "./dependencies";

function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof InsufficientCoinsError) return paymentRequired(error.needed, error.available);
  if (error instanceof DailyCapError) return dailyCapReached(error.cap, error.spent, error.needed);
  if (error instanceof IdempotencyConflictError) return conflict(MESSAGES.idempotencyConflict, "idempotency_conflict");
  if (error instanceof LedgerInProgressError) return conflict("This request is still being processed; retry shortly");
  if (error instanceof UnknownUserError) return notFound("User not found");
  if (error instanceof MulterError) {
    if (error.code === "LIMIT_FILE_SIZE") return tooLarge("File is too large", error.field);
    return badRequest(`${error.field ?? "file"}: ${error.message}`, error.field);
  }
  // The router could not percent-decode a path parameter: the URL is malformed, not the server.
  if (error instanceof URIError) return badRequest("path: malformed URL encoding", "path");
  const e = error as { type?: string; status?: number; expose?: boolean; message?: string };
  if (e?.type === "entity.parse.failed") return badRequest("body: malformed JSON", "body");
  if (e?.type === "entity.too.large") return tooLarge("body: request body is too large", "body");
  if (e?.type === "encoding.unsupported" || e?.type === "charset.unsupported")
    return badRequest("body: unsupported encoding", "body");
  if (typeof e?.status === "number" && e.status >= 400 && e.status < 500 && e.expose) {
    return new AppError(e.status, "bad_request", e.message ?? "Bad request");
  }
  return dependencyFailure(error);
}

const CATALOGS: Record<Language, unknown> = { en, ar };

function text(language: Language, key: string, values: Record<string, string> = {}): string {
  const found = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], CATALOGS[language]);
  return String(found ?? key).replace(/\{\{(\w+)\}\}/gu, (_, name: string) => values[name] ?? "");
}

/** A refusal to retry later, in the user's language, saying when: "Too many requests. Please try again in 5 minutes." */
function retryMessage(language: Language, error: AppError, seconds: number): string {
  return `${text(language, ERROR_TEXT_KEYS[error.code])} ${text(language, "errors.tryAgainWhen", { when: retryWhen(language, seconds) })}`;
}

export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const known = toAppError(error);
  if (!known) {
    req.log?.error({ err: error }, "unhandled error");
    res.status(500).json({ success: false, error: MESSAGES.internal, code: "internal" });
    return;
  }
  if (known.status >= 500) req.log?.warn({ err: error }, known.message);
  const retryAfter = typeof known.extra.retryAfter === "number" ? known.extra.retryAfter : null;
  if (retryAfter !== null) res.setHeader("Retry-After", String(retryAfter));
  // Every 429 says when to come back: Retry-After, and the text in the user's language.
  const message =
    known.status === 429 && retryAfter !== null ? retryMessage(requestLanguage(req), known, retryAfter) : known.message;
  res.status(known.status).json({ success: false, error: message, code: known.code, ...known.extra });
};

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(notFound(`No API route ${req.method} ${req.path}`));
};
