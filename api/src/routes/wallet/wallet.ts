import { walletQuerySchema, walletResponseSchema, walletUseRequestSchema, walletUseResponseSchema } from "@storefront/shared";
import { assertOwnUserId } from "../../middleware/auth";
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
    summary: "Debit the session user's wallet (402 with the available coins when short)",
    auth: "user",
    body: walletUseRequestSchema,
    response: walletUseResponseSchema,
    errors: [400, 401, 402, 403],
    handler: ({ body, req, ctx }) => {
      const userId = assertOwnUserId(req, body.userId);
      const key = requestKey("use", userId, req.get("Idempotency-Key"));
      return useCoins(userId, body.feature, body.tokens, body.details, key, ctx.pusher, ctx.config.LOW_BALANCE_THRESHOLD);
    },
  }),
];
