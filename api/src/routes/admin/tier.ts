import { updateUserTierRequestSchema, updateUserTierResponseSchema } from "@storefront/shared";
import { badRequest } from "../../errors";
import { recordAudit } from "../../services/audit";
import { setCoinsAndTier } from "../../services/wallet";
import { defineRoute, TAGS } from "../define";

export const adminTierRoutes = [
  defineRoute({
    method: "post",
    paths: ["/admin/update-user-tier.php", "/admin/users/tier"],
    tag: TAGS.admin,
    summary: "Set a user's coins and tier (a ledger entry; pushes wallet-updated)",
    auth: "admin",
    permission: "users:edit_wallet",
    grants: ["balance", "tier"],
    body: updateUserTierRequestSchema,
    response: updateUserTierResponseSchema,
    errors: [400, 401, 403, 404],
    handler: async ({ body, req, ctx }) => {
      if (!/^[a-f0-9]{24}$/u.test(body.userId)) throw badRequest("userId: must be a user id", "userId");
      const result = await setCoinsAndTier(body.userId, body.newCoins, body.newTier, req.admin!.id, ctx.pusher);
      const after = { coins: result.coins, tier: result.tier };
      await recordAudit(req.admin!, {
        action: "user.set_wallet",
        targetType: "user",
        targetId: body.userId,
        before: result.before,
        after,
      });
      return { success: true as const, newTier: result.tier, newCoins: result.coins };
    },
  }),
];
