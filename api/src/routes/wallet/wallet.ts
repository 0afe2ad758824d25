import { Router } from "express";
import { walletQuerySchema, walletUseRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { assertOwnUserId, requireUser } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { requestKey, useCoins, walletOf } from "../../services/wallet";

export function walletRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get(
    ["/wallet/get.php", "/wallet"],
    requireUser,
    handle(walletQuerySchema, "query", (input, req) => walletOf(assertOwnUserId(req, input.userId))),
  );

  router.post(
    ["/wallet/use.php", "/wallet/use"],
    requireUser,
    handle(walletUseRequestSchema, "body", (input, req) => {
      const userId = assertOwnUserId(req, input.userId);
      const key = requestKey("use", userId, req.get("Idempotency-Key"));
      return useCoins(userId, input.feature, input.tokens, input.details, key, ctx.pusher);
    }),
  );

  return router;
}
