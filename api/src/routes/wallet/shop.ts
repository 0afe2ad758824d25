/** The Get coins page's calls: what is on offer, buying a package, and a package's renewal switch. */
import {
  autoRenewRequestSchema,
  autoRenewResponseSchema,
  buyPackageRequestSchema,
  buyPackageResponseSchema,
  walletShopResponseSchema,
} from "@storefront/shared";
import { buyPackage, setAutoRenew, walletShop } from "../../services/purchases";
import { requestKey } from "../../services/wallet";
import { defineRoute, TAGS } from "../define";

export const walletShopRoutes = [
  defineRoute({
    method: "get",
    paths: ["/wallet/packages.php", "/wallet/packages"],
    tag: TAGS.wallet,
    summary: "The active packages on offer (coins, price, period) and the session user's running packages",
    auth: "user",
    response: walletShopResponseSchema,
    errors: [401],
    handler: ({ req }) => walletShop(req.user!.id),
  }),

  defineRoute({
    method: "post",
    paths: ["/wallet/buy.php", "/wallet/buy"],
    tag: TAGS.wallet,
    summary:
      "Buy a package through the operator billing: charged and credited once per Idempotency-Key (a repeat answers the first purchase with replayed: true); 402 payment_declined credits nothing; 409 when the package is already running",
    auth: "user",
    body: buyPackageRequestSchema,
    response: buyPackageResponseSchema,
    errors: [400, 401, 402, 404, 409],
    handler: ({ body, req, ctx }) =>
      buyPackage(
        req.user!.id,
        body.packageId,
        requestKey("buy", req.user!.id, req.get("Idempotency-Key")),
        ctx.pusher,
        ctx.config.LOW_BALANCE_THRESHOLD,
      ),
  }),

  defineRoute({
    method: "put",
    paths: ["/wallet/auto-renew.php", "/wallet/auto-renew"],
    tag: TAGS.wallet,
    summary: "Turn the renewal of one of the session user's running packages on or off",
    auth: "user",
    body: autoRenewRequestSchema,
    response: autoRenewResponseSchema,
    errors: [400, 401, 404],
    handler: async ({ body, req }) => ({
      success: true as const,
      subscription: await setAutoRenew(req.user!.id, body.subscriptionId, body.autoRenew),
    }),
  }),
];
