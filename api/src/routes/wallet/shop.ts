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
    summary:
      "The active packages on offer (coins, price, period), the session user's running packages, and whether they can buy now (purchases)",
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
      "Buy a package through the operator billing: charged and credited once per Idempotency-Key (a repeat answers the first purchase with replayed: true); 402 payment_declined credits nothing; 403 phone_unproven until the account's number is proven (it is billed); 409 when the package is already running; 503 purchases_unavailable when the billing takes no payment (OPERATOR_BILLING=offline); 503 payment_pending when the purchase of this key was opened through another billing than the one in use (left for the operator)",
    auth: "user",
    body: buyPackageRequestSchema,
    response: buyPackageResponseSchema,
    errors: [400, 401, 402, 403, 404, 409, 503],
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
    summary:
      "Turn the renewal of one of the session user's running packages off, or on: only a package they bought (403 renewal_not_yours for one an administrator assigned), with a proven number (403 phone_unproven) and a billing that takes payment (503 purchases_unavailable)",
    auth: "user",
    body: autoRenewRequestSchema,
    response: autoRenewResponseSchema,
    errors: [400, 401, 403, 404, 503],
    handler: async ({ body, req }) => ({
      success: true as const,
      subscription: await setAutoRenew(req.user!.id, body.subscriptionId, body.autoRenew),
    }),
  }),
];
