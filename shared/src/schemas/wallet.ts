import { z } from "zod";
import { FEATURES, SUBSCRIPTION_TYPES } from "../constants";
import { clientUserIdSchema, intSchema } from "./common";

export const walletQuerySchema = z.object({ userId: clientUserIdSchema.optional() });

/** `feature` or `featureType` (both forms appear in SPEC §7); `tokens` or `tokensUsed`. */
export const walletUseRequestSchema = z
  .object({
    userId: clientUserIdSchema.optional(),
    feature: z.enum(FEATURES).optional(),
    featureType: z.enum(FEATURES).optional(),
    tokens: intSchema.pipe(z.number().min(1, "tokens must be at least 1").max(1_000_000)).optional(),
    tokensUsed: intSchema.pipe(z.number().min(1, "tokens must be at least 1").max(1_000_000)).optional(),
    details: z.string().max(500).optional(),
  })
  .transform((v, ctx) => {
    const feature = v.featureType ?? v.feature;
    const tokens = v.tokens ?? v.tokensUsed;
    if (!feature) ctx.addIssue({ code: "custom", path: ["featureType"], message: "featureType is required" });
    if (tokens === undefined) ctx.addIssue({ code: "custom", path: ["tokens"], message: "tokens is required" });
    return { userId: v.userId, feature: feature!, tokens: tokens!, details: v.details ?? "" };
  });
export type WalletUseRequest = z.infer<typeof walletUseRequestSchema>;

export const tierInfoSchema = z.object({
  currentTier: z.number().int().min(1).max(10),
  currentTierName: z.string(),
  nextTier: z.number().int().nullable(),
  nextTierName: z.string().nullable(),
  progressToNext: z.number().min(0).max(100),
});

export const walletResponseSchema = z.object({
  success: z.literal(true),
  wallet: z.object({ coins: z.number().int().nonnegative() }),
  tierInfo: tierInfoSchema,
});
export type WalletResponse = z.infer<typeof walletResponseSchema>;

export const walletUseResponseSchema = z.object({
  success: z.literal(true),
  tokensUsed: z.number().int(),
  remainingCoins: z.number().int().nonnegative(),
  transactionId: z.string(),
});

export const updateUserTierRequestSchema = z.object({
  userId: clientUserIdSchema,
  newCoins: intSchema.pipe(z.number().min(0, "newCoins must be at least 0").max(2_000_000_000)),
  newTier: intSchema.pipe(z.number().min(1, "newTier must be between 1 and 10").max(10, "newTier must be between 1 and 10")),
});
export type UpdateUserTierRequest = z.infer<typeof updateUserTierRequestSchema>;
export type WalletUseResponse = z.infer<typeof walletUseResponseSchema>;
/** What a client may send to wallet/use.php (before the server's defaults and aliases). */
export type WalletUseInput = z.input<typeof walletUseRequestSchema>;

/** A package as the Get coins page offers it (active packages only). */
export const shopPackageSchema = z.object({
  id: z.string(),
  name: z.string(),
  coins: z.number().int(),
  price: z.number(),
  subscription_type: z.enum(SUBSCRIPTION_TYPES),
  description: z.string(),
});
export type ShopPackage = z.infer<typeof shopPackageSchema>;

/** One of the subscriber's own packages (bought or given), with its renewal switch. */
export const mySubscriptionSchema = z.object({
  id: z.string(),
  package_id: z.string(),
  package_name: z.string(),
  coins: z.number().int(),
  price: z.number(),
  subscription_type: z.enum(SUBSCRIPTION_TYPES),
  auto_renew: z.boolean(),
  expires_at: z.string().nullable(),
  /** Bought by the subscriber (renewal may be turned on); false for a package an administrator assigned. */
  bought: z.boolean(),
});
export type MySubscription = z.infer<typeof mySubscriptionSchema>;

export const walletShopResponseSchema = z.object({
  success: z.literal(true),
  /**
   * Whether the subscriber can buy now: "open"; "purchases_unavailable" when no billing that takes
   * payment is set up (OPERATOR_BILLING); "phone_unproven" until their number is proven.
   */
  purchases: z.enum(["open", "purchases_unavailable", "phone_unproven"]),
  packages: z.array(shopPackageSchema),
  subscriptions: z.array(mySubscriptionSchema),
});
export type WalletShopResponse = z.infer<typeof walletShopResponseSchema>;

export const buyPackageRequestSchema = z.object({
  packageId: z
    .unknown()
    .transform((v) => (v === null || v === undefined ? "" : String(v).trim()))
    .pipe(z.string().regex(/^[a-f0-9]{24}$/u, "packageId must be a package id")),
});
export type BuyPackageRequest = z.infer<typeof buyPackageRequestSchema>;

export const buyPackageResponseSchema = z.object({
  success: z.literal(true),
  subscription: mySubscriptionSchema,
  coinsAdded: z.number().int().nonnegative(),
  coins: z.number().int().nonnegative(),
  /** True when this answered a repeated request (same Idempotency-Key): nothing was charged again. */
  replayed: z.boolean(),
});
export type BuyPackageResponse = z.infer<typeof buyPackageResponseSchema>;

export const autoRenewRequestSchema = z.object({
  subscriptionId: z.string().regex(/^[a-f0-9]{24}$/u, "subscriptionId must be a subscription id"),
  autoRenew: z.boolean({ error: "autoRenew must be true or false" }),
});
export type AutoRenewRequest = z.infer<typeof autoRenewRequestSchema>;

export const autoRenewResponseSchema = z.object({ success: z.literal(true), subscription: mySubscriptionSchema });

const dayOrInstant = (field: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/u, `${field} must be a date (YYYY-MM-DD) or a date-time`)
    .refine((v) => !Number.isNaN(new Date(v).getTime()), `${field} must be a real date`);

/** My usage: the session user's own ledger, newest first. `to` as a day includes that whole day. */
export const walletHistoryQuerySchema = z.object({
  feature: z.enum(FEATURES, { error: `feature must be one of ${FEATURES.join(", ")}` }).optional(),
  from: dayOrInstant("from").optional(),
  to: dayOrInstant("to").optional(),
  page: intSchema.pipe(z.number().min(1, "page must be at least 1").max(100_000, "page is too large")).default(1),
  limit: intSchema
    .pipe(z.number().min(1, "limit must be between 1 and 100").max(100, "limit must be between 1 and 100"))
    .default(20),
  format: z.enum(["json", "csv"], { error: "format must be json or csv" }).default("json"),
});
export type WalletHistoryQuery = z.infer<typeof walletHistoryQuerySchema>;

export const HISTORY_KINDS = ["charge", "refund", "credit", "purchase", "renewal", "adjustment"] as const;

export const walletHistoryEntrySchema = z.object({
  id: z.string(),
  /** What the movement was, for people: a charge (hold or debit), a refund, a credit, a purchase, a renewal, an adjustment. */
  kind: z.enum(HISTORY_KINDS),
  feature: z.string().nullable(),
  amount: z.number().int(),
  balance_after: z.number().int().nullable(),
  /** The job it paid for (queue and id), when it was one. */
  reference: z.object({ queue: z.string(), job_id: z.string() }).nullable(),
  date: z.string(),
});
export type WalletHistoryEntry = z.infer<typeof walletHistoryEntrySchema>;

export const walletHistoryResponseSchema = z.object({
  success: z.literal(true),
  entries: z.array(walletHistoryEntrySchema),
  page: z.number().int(),
  total: z.number().int(),
  total_pages: z.number().int(),
});
export type WalletHistoryResponse = z.infer<typeof walletHistoryResponseSchema>;

/** A redemption code as people type it: letters and digits, dashes and spaces ignored. */
export const redeemRequestSchema = z.object({
  code: z
    .string({ error: "code is required" })
    .transform((v) => v.toUpperCase().replace(/[\s-]/gu, ""))
    .pipe(z.string().regex(/^[0-9A-Z]{20}$/u, "code: this code is not valid")),
});
export type RedeemRequest = z.infer<typeof redeemRequestSchema>;

export const redeemResponseSchema = z.object({
  success: z.literal(true),
  coinsAdded: z.number().int().positive(),
  coins: z.number().int().nonnegative(),
});
export type RedeemResponse = z.infer<typeof redeemResponseSchema>;

export const createRedemptionBatchRequestSchema = z.object({
  label: z
    .string({ error: "label is required" })
    .trim()
    .min(1, "label is required")
    .max(80, "label must be at most 80 characters"),
  count: intSchema.pipe(z.number().min(1, "count must be between 1 and 1000").max(1000, "count must be between 1 and 1000")),
  coins: intSchema.pipe(
    z.number().min(1, "coins must be between 1 and 1000000").max(1_000_000, "coins must be between 1 and 1000000"),
  ),
  usesPerCode: intSchema
    .pipe(z.number().min(1, "usesPerCode must be between 1 and 1000").max(1000, "usesPerCode must be between 1 and 1000"))
    .default(1),
  expiresAt: z.iso
    .datetime({ local: true, offset: true, error: "expiresAt must be a date-time" })
    .transform((v) => new Date(v))
    .refine((d) => d.getTime() > Date.now(), "expiresAt must be in the future"),
});
export type CreateRedemptionBatchRequest = z.infer<typeof createRedemptionBatchRequestSchema>;

export const redemptionBatchSchema = z.object({
  id: z.string(),
  label: z.string(),
  coins: z.number().int(),
  uses_per_code: z.number().int(),
  count: z.number().int(),
  redeemed: z.number().int(),
  remaining: z.number().int(),
  expires_at: z.string(),
  enabled: z.boolean(),
  created_by: z.string(),
  created_at: z.string(),
});
export type RedemptionBatchView = z.infer<typeof redemptionBatchSchema>;

export const redemptionUseViewSchema = z.object({
  user_id: z.string(),
  phone: z.string().nullable(),
  coins: z.number().int(),
  at: z.string(),
});

export const redemptionBatchesQuerySchema = z.object({
  batchId: z
    .string()
    .regex(/^[a-f0-9]{24}$/u, "batchId must be a batch id")
    .optional(),
});

export const redemptionBatchesResponseSchema = z.object({
  success: z.literal(true),
  batches: z.array(redemptionBatchSchema),
  /** With `batchId`: who redeemed that batch's codes, newest first (at most 200). */
  redemptions: z.array(redemptionUseViewSchema).optional(),
});

export const createRedemptionBatchResponseSchema = z.object({
  success: z.literal(true),
  batch: redemptionBatchSchema,
  /** The codes themselves, shown this once: only their hashes are stored. */
  codes: z.array(z.string()),
});
export type CreateRedemptionBatchResponse = z.infer<typeof createRedemptionBatchResponseSchema>;

export const updateRedemptionBatchRequestSchema = z.object({
  id: z.string().regex(/^[a-f0-9]{24}$/u, "id must be a batch id"),
  enabled: z.boolean({ error: "enabled must be true or false" }),
});
export const updateRedemptionBatchResponseSchema = z.object({ success: z.literal(true), batch: redemptionBatchSchema });

const settingsCoins = (field: string, min: number) =>
  intSchema
    .pipe(
      z
        .number()
        .min(min, `${field} must be between ${min} and 1000000`)
        .max(1_000_000, `${field} must be between ${min} and 1000000`),
    )
    .nullable();

/** PUT wallet/settings.php: any of the fields; null puts one back to the default. */
export const walletSettingsRequestSchema = z
  .object({
    dailyCap: settingsCoins("dailyCap", 1).optional(),
    lowBalanceThreshold: settingsCoins("lowBalanceThreshold", 0).optional(),
    /** Also send the low-balance notice by SMS to the account's phone. */
    smsAlerts: z.boolean({ message: "smsAlerts must be true or false" }).optional(),
  })
  .strict()
  .refine(
    (v) => v.dailyCap !== undefined || v.lowBalanceThreshold !== undefined || v.smsAlerts !== undefined,
    "send dailyCap, lowBalanceThreshold or smsAlerts",
  );
export type WalletSettingsRequest = z.infer<typeof walletSettingsRequestSchema>;

export const walletSettingsResponseSchema = z.object({
  success: z.literal(true),
  /** What the user set (null: not set, the default applies). */
  settings: z.object({
    dailyCap: z.number().int().nullable(),
    lowBalanceThreshold: z.number().int().nullable(),
    smsAlerts: z.boolean(),
  }),
  /** What applies now. */
  effective: z.object({
    /** Coins that may be spent per UTC day; null: no cap. */
    dailyCap: z.number().int().nullable(),
    /** Where the cap comes from: the user's own, their tier's default, or none. */
    dailyCapSource: z.enum(["user", "tier", "none"]),
    /** Below this balance the low-balance notice goes out (0: never). */
    lowBalanceThreshold: z.number().int(),
    /** Coins spent since 00:00 UTC (charges less their refunds). */
    spentToday: z.number().int(),
    /** When today's spending starts again from 0 (the next 00:00 UTC). */
    resetsAt: z.string(),
  }),
});
export type WalletSettingsResponse = z.infer<typeof walletSettingsResponseSchema>;
