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
export const unauthorized = (message: string = MESSAGES.notAuthenticated) => new AppError(401, "unauthorized", message);
export const forbidden = (message: string) => new AppError(403, "forbidden", message);
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, "not_found", message);
export const conflict = (message: string) => new AppError(409, "conflict", message);
export const tooLarge = (message: string, field?: string) => new AppError(413, "too_large", message, field ? { field } : {});
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError(429, "rate_limited", message, { retryAfter: retryAfterSeconds });
export const paymentRequired = (needed: number, available: number) =>
  new AppError(402, "payment_required", MESSAGES.insufficientCoins, { needed, available, required: needed });
export const unavailable = (message: string) => new AppError(503, "unavailable", message);
export const timeout = (message: string) => new AppError(504, "timeout", message);
