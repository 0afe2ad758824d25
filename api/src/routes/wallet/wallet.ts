import {
  walletQuerySchema,
  walletResponseSchema,
  walletSettingsRequestSchema,
  walletSettingsResponseSchema,
  walletUseRequestSchema,
  walletUseResponseSchema,
} from "@storefront/shared";
import { assertOwnUserId } from "../../middleware/auth";
import { saveWalletSettings, walletSettings } from "../../services/spending";
import { requestKey, useCoins, walletOf } from "../../services/wallet";
import { defineRoute, TAGS } from "../define";

export const walletRoutes = [
  defineRoute({
    method: "get",
    paths: ["/wallet/get.php", "/wallet"],
    tag: TAGS.wallet,
    summary: "Coins and tier of the session user",
    auth: "user",
    query: walletQuerySchema,
    response: walletResponseSchema,
    errors: [401, 403],
    handler: ({ query, req }) => walletOf(assertOwnUserId(req, query.userId)),
  }),

  defineRoute({
    method: "post",
    paths: ["/wallet/use.php", "/wallet/use"],
    tag: TAGS.wallet,
    summary:
      "Debit the session user's wallet (402 insufficient_coins with the available coins when short, 402 daily_cap_reached with the cap and today's spending past the daily cap)",
    auth: "user",
    body: walletUseRequestSchema,
    response: walletUseResponseSchema,
    errors: [400, 401, 402, 403],
    handler: ({ body, req, ctx }) => {
      const userId = assertOwnUserId(req, body.userId);
      const key = requestKey("use", userId, req.get("Idempotency-Key"));
      return useCoins(ctx, userId, body.feature, body.tokens, body.details, key);
    },
  }),

  defineRoute({
    method: "get",
    paths: ["/wallet/settings.php", "/wallet/settings"],
    tag: TAGS.wallet,
    summary: "The session user's daily spending cap and low-balance threshold: as set, and as they apply now",
    auth: "user",
    response: walletSettingsResponseSchema,
    errors: [401],
    handler: ({ req, ctx }) => walletSettings(req.user!.id, ctx.config.LOW_BALANCE_THRESHOLD),
  }),

  defineRoute({
    method: "put",
    paths: ["/wallet/settings.php", "/wallet/settings"],
    tag: TAGS.wallet,
    summary:
      "Set the daily spending cap (coins per UTC day, 1-1000000) and the low-balance threshold (0 turns the notice off); null puts either back to the default",
    auth: "user",
    body: walletSettingsRequestSchema,
    response: walletSettingsResponseSchema,
    errors: [400, 401, 429],
    handler: ({ body, req, ctx }) => saveWalletSettings(ctx, req.user!.id, body),
  }),
];
