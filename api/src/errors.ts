/** Errors are values with an HTTP status and a stable code; middleware/errors.ts renders them. */
import { MESSAGES, type ErrorCode } from "@storefront/shared";

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new AppError(400, "bad_request", message, field ? { field } : {});
export const unauthorized = (message: string = MESSAGES.notAuthenticated, code: ErrorCode = "unauthorized") =>
  new AppError(401, code, message);
export const forbidden = (message: string, code: ErrorCode = "forbidden") => new AppError(403, code, message);
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, "not_found", message);
export const conflict = (message: string, code: ErrorCode = "conflict") => new AppError(409, code, message);
export const tooLarge = (message: string, field?: string) => new AppError(413, "too_large", message, field ? { field } : {});
export const rateLimited = (message: string, retryAfterSeconds: number, code: ErrorCode = "rate_limited") =>
  new AppError(429, code, message, { retryAfter: retryAfterSeconds });
export const paymentRequired = (needed: number, available: number) =>
  new AppError(402, "insufficient_coins", MESSAGES.insufficientCoins, { needed, available, required: needed });
/** 402 like a short wallet, naming the cap: the charge would pass the user's daily spending cap. */
export const dailyCapReached = (cap: number, spent: number, needed: number) =>
  new AppError(402, "daily_cap_reached", MESSAGES.dailyCapReached, { cap, spent, needed });
export const unavailable = (message: string, code: ErrorCode = "unavailable") => new AppError(503, code, message);
