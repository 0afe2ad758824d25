// Types only: this module is in the first chunk, where zod would break the bundle budget.
import type { WalletResponse } from "@storefront/shared";
import { get } from "./client";

export type Wallet = WalletResponse;

/** The badge sends no user id: the session says whose wallet it is. A body without coins is refused, not shown as 0. */
export async function getWallet(): Promise<Wallet> {
  const body = await get<Wallet | null>("wallet/get.php");
  if (typeof body?.wallet?.coins !== "number" || typeof body.tierInfo?.currentTier !== "number") {
    throw new Error("Invalid response from server");
  }
  return body;
}

/** Other screens (and the socket push) ask every wallet view to reload with this browser event. */
export const WALLET_UPDATED_EVENT = "walletUpdated";

export function announceWalletUpdate(): void {
  window.dispatchEvent(new Event(WALLET_UPDATED_EVENT));
}
