import type { Feature, TierInfo } from "@storefront/shared";
import { get, post } from "./client";

export interface Wallet {
  wallet: { coins: number };
  tierInfo: TierInfo;
}

/** The badge sends no user id: the session says whose wallet it is. */
export const getWallet = () => get<Wallet>("wallet/get.php");

export interface SpendRequest {
  featureType: Feature;
  tokens: number;
  /** A label plus the first 50 characters of the input (SPEC §7). */
  details: string;
}

export interface SpendResult {
  success: true;
  tokensUsed: number;
  remainingCoins: number;
}

export const spendCoins = (body: SpendRequest) => post<SpendResult>("wallet/use.php", body);

/** Other screens (and the socket push) ask every wallet view to reload with this browser event. */
export const WALLET_UPDATED_EVENT = "walletUpdated";

export function announceWalletUpdate(): void {
  window.dispatchEvent(new Event(WALLET_UPDATED_EVENT));
}
