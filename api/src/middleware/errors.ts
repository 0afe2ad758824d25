import type { ErrorRequestHandler, RequestHandler } from "express";
import { MulterError } from "multer";
import { MESSAGES } from "@storefront/shared";
import {
  DailyCapError,
  IdempotencyConflictError,
  InsufficientCoinsError,
  LedgerInProgressError,
  UnknownUserError,
} from "@storefront/shared/server";
import { AppError, badRequest, conflict, dailyCapReached, notFound, paymentRequired, tooLarge } from "../errors";
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

export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const known = toAppError(error);
  if (!known) {
    req.log?.error({ err: error }, "unhandled error");
    res.status(500).json({ success: false, error: MESSAGES.internal, code: "internal" });
    return;
  }
  if (known.status >= 500) req.log?.warn({ err: error }, known.message);
  if (typeof known.extra.retryAfter === "number") res.setHeader("Retry-After", String(known.extra.retryAfter));
  res.status(known.status).json({ success: false, error: known.message, code: known.code, ...known.extra });
};

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(notFound(`No API route ${req.method} ${req.path}`));
};
