/**
 * The subscriber's wallet settings (wallet/settings.php): a daily spending cap and a low-balance
 * threshold of their own. The cap is enforced by the ledger in the same conditional update as the
 * debit (ledger.ts `commit`); this module decides which cap applies and answers the settings.
 */
import type { Redis } from "ioredis";
import {
  dailyCapFor,
  MESSAGES,
  tiersHaveCaps,
  type WalletSettingsRequest,
  type WalletSettingsResponse,
} from "@storefront/shared";
import { loadWalletTables, publishCacheChange, spendDayOf, User } from "@storefront/shared/server";
import { notFound } from "../errors";
import { cachedUser } from "../middleware/auth";
import { hit } from "../middleware/rate-limit";

/**
 * The cap a charge of this user must stay under (null: none). Their own comes from the per-process
 * user cache; only when they have none and some tier has a default is the balance read, to know
 * their tier.
 */
export async function dailyCapOf(userId: string): Promise<number | null> {
  const own = (await cachedUser(userId))?.dailyCap ?? null;
  if (own !== null) return own;
  const { tiers } = await loadWalletTables();
  if (!tiersHaveCaps(tiers)) return null;
  const user = await User.findById(userId, { coins: 1, tier: 1 }).lean<{ coins: number; tier: number }>();
  return user ? dailyCapFor(null, user.coins, user.tier, tiers).cap : null;
}

interface SettingsFields {
  coins: number;
  tier: number;
  dailyCap?: number | null;
  lowBalanceThreshold?: number | null;
  smsAlerts?: boolean;
  spendDay?: string | null;
  spentToday?: number;
}

function nextMidnightUtc(now: Date): string {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return next.toISOString();
}

export async function walletSettings(userId: string, configuredThreshold: number): Promise<WalletSettingsResponse> {
  const [user, tables] = await Promise.all([
    User.findById(userId, {
      coins: 1,
      tier: 1,
      dailyCap: 1,
      lowBalanceThreshold: 1,
      smsAlerts: 1,
      spendDay: 1,
      spentToday: 1,
    }).lean<SettingsFields>(),
    loadWalletTables(),
  ]);
  if (!user) throw notFound("User not found");
  const now = new Date();
  const cap = dailyCapFor(user.dailyCap, user.coins, user.tier, tables.tiers);
  return {
    success: true,
    settings: {
      dailyCap: user.dailyCap ?? null,
      lowBalanceThreshold: user.lowBalanceThreshold ?? null,
      smsAlerts: user.smsAlerts ?? false,
    },
    effective: {
      dailyCap: cap.cap,
      dailyCapSource: cap.source,
      lowBalanceThreshold: user.lowBalanceThreshold ?? configuredThreshold,
      spentToday: user.spendDay === spendDayOf(now) ? (user.spentToday ?? 0) : 0,
      resetsAt: nextMidnightUtc(now),
    },
  };
}

/**
 * Saves the fields sent (null clears one back to the default) and tells every process. Limited per
 * user: each save is a publish that every API process acts on.
 */
export async function saveWalletSettings(
  deps: { redis: Redis; config: { LOW_BALANCE_THRESHOLD: number; SETTINGS_RATE_LIMIT_PER_HOUR: number } },
  userId: string,
  input: WalletSettingsRequest,
): Promise<WalletSettingsResponse> {
  await hit(deps.redis, `settings:user:${userId}`, deps.config.SETTINGS_RATE_LIMIT_PER_HOUR, 3600, MESSAGES.tooManyRequests);
  const configuredThreshold = deps.config.LOW_BALANCE_THRESHOLD;
  const set: Record<string, number | boolean | null> = {};
  if (input.dailyCap !== undefined) set.dailyCap = input.dailyCap;
  if (input.lowBalanceThreshold !== undefined) set.lowBalanceThreshold = input.lowBalanceThreshold;
  if (input.smsAlerts !== undefined) set.smsAlerts = input.smsAlerts;
  // A changed threshold starts a fresh crossing: the next charge below it sends a notice.
  if (input.lowBalanceThreshold !== undefined) set.lowBalanceAlerted = false;
  const updated = await User.updateOne({ _id: userId }, { $set: set });
  if (updated.matchedCount === 0) throw notFound("User not found");
  await publishCacheChange("user", userId);
  return walletSettings(userId, configuredThreshold);
}
