import { z } from "zod";
import { FEATURES } from "../constants";
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
