import { Router } from "express";
import { updateUserTierRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { recordAudit } from "../../services/audit";
import { setCoinsAndTier } from "../../services/wallet";

export function adminTierRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post(
    ["/admin/update-user-tier.php", "/admin/users/tier"],
    requireAdmin("users:edit_wallet", "coins:grant"),
    handle(updateUserTierRequestSchema, "body", async (input, req) => {
      if (!/^[a-f0-9]{24}$/u.test(input.userId)) throw badRequest("userId: must be a user id", "userId");
      const result = await setCoinsAndTier(input.userId, input.newCoins, input.newTier, req.admin!.id, ctx.pusher);
      const after = { coins: result.coins, tier: result.tier };
      await recordAudit(req.admin!, {
        action: "user.set_wallet",
        targetType: "user",
        targetId: input.userId,
        before: result.before,
        after,
      });
      return { success: true, newTier: result.tier, newCoins: result.coins };
    }),
  );
  return router;
}
