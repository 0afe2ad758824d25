import { Router } from "express";
import { updateUserTierRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { setCoinsAndTier } from "../../services/wallet";

export function adminTierRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post(
    ["/admin/update-user-tier.php", "/admin/users/tier"],
    requireAdmin("users:edit_wallet"),
    handle(updateUserTierRequestSchema, "body", async (input, req) => {
      if (!/^[a-f0-9]{24}$/u.test(input.userId)) throw badRequest("userId: must be a user id", "userId");
      const result = await setCoinsAndTier(input.userId, input.newCoins, input.newTier, req.admin!.id, ctx.pusher);
      return { success: true, newTier: result.tier, newCoins: result.coins };
    }),
  );
  return router;
}
