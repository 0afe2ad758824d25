import { randomUUID } from "node:crypto";
import { Types } from "mongoose";
import { MESSAGES, tierInfo, type Feature, type TierInfo } from "@storefront/shared";
import { User, debit, loadWalletTables, setBalance, type Pusher } from "@storefront/shared/server";
import { badRequest, notFound } from "../errors";
import { noticeBalance, type NoticeDeps } from "./low-balance";
import { dailyCapOf } from "./spending";

export interface WalletView {
  success: true;
  wallet: { coins: number };
  tierInfo: TierInfo;
}

export async function walletOf(userId: string): Promise<WalletView> {
  if (!Types.ObjectId.isValid(userId)) throw notFound("User not found");
  // Through the driver: read on every screen of the app, and two plain fields to read.
  const [user, tables] = await Promise.all([
    User.collection.findOne<{ coins: number; tier: number }>(
      { _id: new Types.ObjectId(userId) },
      { projection: { coins: 1, tier: 1 } },
    ),
    loadWalletTables(),
  ]);
  if (!user) throw notFound("User not found");
  return { success: true, wallet: { coins: user.coins }, tierInfo: tierInfo(user.coins, user.tier, tables.tiers) };
}

const IDEMPOTENCY_KEY = /^[\w.:-]{8,128}$/u;

/**
 * The client's Idempotency-Key header, trimmed; undefined when it sent none. A key that fails
 * the format is a 400: replacing it with a fresh one would charge the client's retry twice.
 */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  const clean = header?.trim();
  if (!clean) return undefined;
  if (!IDEMPOTENCY_KEY.test(clean)) throw badRequest(MESSAGES.idempotencyKeyInvalid, "Idempotency-Key");
  return clean;
}

/**
 * The idempotency key of a client request: its Idempotency-Key header scoped to the user and
 * the call, or a fresh one when the client sent none.
 */
export function requestKey(scope: string, userId: string, header: string | undefined): string {
  return `${scope}:${userId}:${idempotencyKeyOf(header) ?? randomUUID()}`;
}

export async function useCoins(
  deps: NoticeDeps,
  userId: string,
  feature: Feature,
  tokens: number,
  details: string,
  key: string,
): Promise<{ success: true; tokensUsed: number; remainingCoins: number; transactionId: string }> {
  const entry = await debit(userId, tokens, key, feature, details.slice(0, 200), await dailyCapOf(userId));
  const remaining = entry.balanceAfter ?? (await walletOf(userId)).wallet.coins;
  if (!entry.replayed) {
    deps.pusher.toUser(userId, "wallet:updated", { coins: remaining, reason: `use:${feature}` });
    await noticeBalance(deps, userId, remaining, { alerted: entry.lowBalanceAlerted });
  }
  return { success: true, tokensUsed: tokens, remainingCoins: remaining, transactionId: entry.id };
}

export async function setCoinsAndTier(
  userId: string,
  coins: number,
  tier: number,
  adminId: string,
  pusher: Pusher,
): Promise<{ coins: number; tier: number; before: { coins: number; tier: number } }> {
  const before = await User.findById(userId, { coins: 1, tier: 1 }).lean<{ coins: number; tier: number }>();
  if (!before) throw notFound("User not found");
  await setBalance(userId, coins, "admin_set", "administrator set the balance", `admin:${adminId}`);
  await User.updateOne({ _id: userId }, { tier });
  pusher.toUser(userId, "wallet:updated", { coins, reason: "admin_set" });
  return { coins, tier, before: { coins: before.coins, tier: before.tier } };
}
