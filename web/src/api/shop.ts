/** The Get coins page's calls (wallet/packages.php, wallet/buy.php, wallet/auto-renew.php). */
import type { z } from "zod";
import {
  type autoRenewRequestSchema,
  type autoRenewResponseSchema,
  type buyPackageRequestSchema,
  type redeemRequestSchema,
  buyPackageResponseSchema,
  redeemResponseSchema,
  type RedeemResponse,
  walletShopResponseSchema,
  type BuyPackageResponse,
  type MySubscription,
  type WalletShopResponse,
} from "@storefront/shared";
import { get, request } from "./client";

export async function walletShop(): Promise<WalletShopResponse> {
  return walletShopResponseSchema.parse(await get<unknown>("wallet/packages.php"));
}

/** `key` is the purchase's Idempotency-Key: a retry with the same key never charges twice. */
export async function buyPackage(packageId: string, key: string): Promise<BuyPackageResponse> {
  const body = await request<unknown>("wallet/buy.php", {
    method: "POST",
    body: { packageId } satisfies z.input<typeof buyPackageRequestSchema>,
    headers: { "Idempotency-Key": key },
  });
  return buyPackageResponseSchema.parse(body);
}

export async function setAutoRenew(subscriptionId: string, autoRenew: boolean): Promise<MySubscription> {
  const body = await request<z.output<typeof autoRenewResponseSchema>>("wallet/auto-renew.php", {
    method: "PUT",
    body: { subscriptionId, autoRenew } satisfies z.input<typeof autoRenewRequestSchema>,
  });
  return body.subscription;
}

export async function redeemCode(code: string): Promise<RedeemResponse> {
  return redeemResponseSchema.parse(
    await request<unknown>("wallet/redeem.php", { method: "POST", body: { code } satisfies z.input<typeof redeemRequestSchema> }),
  );
}
