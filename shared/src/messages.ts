/** The user-facing error and notice texts of SPEC §8 that the server answers with. */
export const MESSAGES = {
  invalidCredentials: "Invalid phone number or password. Please check your credentials.",
  phoneTaken: "This phone number is already subscribed. Please try logging in instead.",
  /** Sign-up with a number libphonenumber finds impossible for its region (a 400 naming the field). */
  phoneImpossible: "phone: not a possible phone number (check the country code and the number of digits)",
  notAuthenticated: "Not authenticated",
  accountInactive: "This account is inactive. Please contact support.",
  forbiddenUser: "You can only act on your own account",
  tooManyLogins: "Too many login attempts. Please wait a minute and try again.",
  tooManyRequests: "Too many requests. Please slow down.",
  insufficientCoins: "Insufficient coins",
  dailyCapReached: "This would pass your daily spending cap. It resets at 00:00 UTC.",
  adminLoginFailed: "Login failed",
  adminSessionRequired: "Admin session required",
  adminForbidden: "Your admin role does not allow this action",
  invalidImage: "Please select a valid image file",
  avatarTooLarge: "Image size must be less than 5MB",
  imageTooLarge: "File size must be less than 10MB",
  promptRequired: "Please enter a prompt",
  imageRequired: "Please select an image to edit",
  packageRequired: "Please select a package",
  codeInvalid: "code: this code is not valid",
  codeExpired: "code: this code has expired",
  codeUsedUp: "code: this code has been used up",
  codeAlreadyRedeemed: "code: you have already redeemed this code",
  tooManyRedemptions: "Too many code attempts. Please wait and try again.",
  paymentDeclined: "The payment was declined: nothing was charged and no coins were added",
  paymentPending:
    "This purchase is still being settled with the operator: no coins were added yet. Try again later or contact support.",
  packageAlreadyActive: "This user already has this package assigned",
  purchasesUnavailable:
    "Packages cannot be bought here yet: no payment provider is set up. Ask support to add a package to your account.",
  phoneUnproven: "Prove your phone number first (/verify-phone): packages are charged to that number.",
  renewalNotYours: "autoRenew: this package was given by an administrator; only they can make it renew.",
  notFound: "Not found",
  idempotencyConflict: "This Idempotency-Key was already used for a different request",
  idempotencyKeyInvalid: "Idempotency-Key: must be 8 to 128 letters, digits or . _ : - characters",
  crossSiteRefused: "Cross-site request refused",
  jsonRequired: "body: must be sent as application/json",
  tooManySignups: "Too many sign-ups from this address. Please try again later.",
  tooManyPhoneCodes: "Too many codes asked for. Please try again later.",
  phoneCodeInvalid: "code: this code is not right. Check the SMS and try again.",
  phoneCodeExpired: "code: this code has expired. Ask for a new one.",
  phoneCodeAttempts: "code: too many wrong codes. Ask for a new one.",
  phoneCodeMissing: "code: no code was sent to this number, or it was already used. Ask for a new one.",
  phoneNeeded: "phone: give the number to prove",
  /** A code asked for a number of a country PHONE_CODE_COUNTRIES does not list. */
  phoneCountryRefused: "phone: codes are not sent to numbers of this country",
  tooManyPhoneCodeTries: "Too many codes were tried from this account or address. Please try again later.",
  /** Past a number's wrong-try ceiling (by everyone): no code for it is checked until the window ends. */
  tooManyNumberTries: "Too many wrong codes were typed for this number, so proving it is paused. Please try again later.",
  phoneAlreadyProven: "phone: this number is already proven on your account",
  currentPasswordWrong: "currentPassword: the current password is incorrect",
  internal: "Something went wrong. Please try again.",
  aiBusy: "The AI service is busy. Please try again in a minute.",
  aiUnavailable: "The AI service is not available right now. Please try again later.",
  aiRefused: "The AI service could not handle this request. Please change it and try again.",
  jobFailed: "The request could not be completed. Your coins were refunded.",
  serviceUnavailable: "The service is briefly unavailable. Nothing was charged; please try again in a moment.",
} as const;

export type MessageKey = keyof typeof MESSAGES;

// The codes live apart from the texts: the web's first page needs the codes (api/client.ts) but not
// the server's English texts, and a module the first page imports travels whole in its chunk.
export * from "./error-codes";
