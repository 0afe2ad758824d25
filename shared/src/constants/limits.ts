/** Input limits and toast durations of SPEC §2, §8 and §9. */

export const LIMITS = {
  doctorMessageChars: 2000,
  doctorCounterThreshold: 0.8,
  smsCharsEnglish: 400,
  smsCharsArabic: 210,
  avatarBytes: 5 * 1024 * 1024,
  /** Longest side of an avatar in pixels (a 5 MB PNG can hold a 16000 px square: 1 GB decoded). */
  avatarMaxSide: 4096,
  imageEditBytes: 10 * 1024 * 1024,
  /** Longest side of an image-edit upload: a 10 MB flat PNG can declare 16000 x 16000 (1 GB decoded). */
  imageEditMaxSide: 4096,
  conversationTitleChars: 50,
  textareaMaxHeightPx: 120,
  chatMessageChars: 8000,
  promptChars: 4000,
  videoMinSeconds: 5,
  videoMaxSeconds: 12,
  videoDefaultSeconds: 5,
  recentImages: 10,
  smsLocalContext: 5,
  smsBackendContext: 10,
  adminPageSize: 20,
  displayNameChars: 60,
  /**
   * Most output tokens a chat or Doctor reply may take (the provider's max_tokens): about 600
   * words, which a model streams well inside AI_RETRY_BUDGET_MS, so an answer ends before its
   * deadline and a long one costs the provider a bounded amount (docs/security.md).
   */
  chatReplyMaxTokens: 800,
  /** Most output tokens an SMS AI reply may take: 400 characters (210 in Arabic) need far fewer. */
  smsReplyMaxTokens: 200,
} as const;

/**
 * Upper bounds of one wallet package (docs/decisions.md): 50 times the largest default package,
 * so a typo or a hostile manager cannot mint billions of coins in one assignment.
 */
export const PACKAGE_MAX = { coins: 1_000_000, price: 10_000 } as const;

/** Administrator passwords: longer than subscribers' (PASSWORD_MIN), as they guard every account. */
export const ADMIN_PASSWORD_MIN = 12;

// The toasts' durations apart: the first page's toasts need them, not the screens' limits.
export * from "./toasts";
