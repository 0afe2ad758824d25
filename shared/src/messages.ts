/** The user-facing error and notice texts of SPEC §8 that the server answers with. */
export const MESSAGES = {
  invalidCredentials: "Invalid phone number or password. Please check your credentials.",
  phoneTaken: "This phone number is already registered. Please try logging in instead.",
  notAuthenticated: "Not authenticated",
  accountInactive: "This account is inactive. Please contact support.",
  forbiddenUser: "You can only act on your own account",
  tooManyLogins: "Too many login attempts. Please wait a minute and try again.",
  tooManyRequests: "Too many requests. Please slow down.",
  insufficientCoins: "Insufficient coins",
  adminLoginFailed: "Login failed",
  adminSessionRequired: "Admin session required",
  adminForbidden: "Your admin role does not allow this action",
  invalidImage: "Please select a valid image file",
  avatarTooLarge: "Image size must be less than 5MB",
  imageTooLarge: "File size must be less than 10MB",
  promptRequired: "Please enter a prompt",
  imageRequired: "Please select an image to edit",
  packageRequired: "Please select a package",
  packageAlreadyActive: "This user already has this package assigned",
  notFound: "Not found",
  idempotencyConflict: "This Idempotency-Key was already used for a different request",
  internal: "Something went wrong. Please try again.",
  serviceUnavailable: "The service is briefly unavailable. Nothing was charged; please try again in a moment.",
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** Stable machine-readable error codes carried beside the text. */
export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "payment_required",
  "too_large",
  "rate_limited",
  "unavailable",
  "timeout",
  "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
