/** The movements callers ask for by name: charges, credits, absolute sets and holds. */
import { randomUUID } from "node:crypto";
import type { Types } from "mongoose";
import type { LedgerKind } from "../models/ledger-entry";
import { append, appendSet, type AppliedEntry } from "./chain";

/** The UTC day a spend counts toward ("2026-11-25"); the daily cap resets at 00:00 UTC. */
export function spendDayOf(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10);
}

/** Debits a charge for a feature; InsufficientCoinsError (402) when short, DailyCapError past the cap. */
export function debit(
  userId: Types.ObjectId | string,
  coins: number,
  key: string,
  feature: string,
  details = "",
  dailyCap: number | null = null,
): Promise<AppliedEntry> {
  if (coins < 1) throw new RangeError("a debit is at least 1 coin");
  const spend = { day: spendDayOf(), cap: dailyCap };
  return append({ userId, key, kind: "debit", amount: -coins, feature, details, reason: `use:${feature}`, spend });
}

export function credit(
  userId: Types.ObjectId | string,
  coins: number,
  key: string,
  kind: Extract<LedgerKind, "credit" | "refund" | "renewal">,
  reason: string,
  actor = "system",
  /** For a refund of a debit: the day it counted toward, whose allowance comes back with it. */
  unspendDay?: string | null,
): Promise<AppliedEntry> {
  if (coins < 1) throw new RangeError("a credit is at least 1 coin");
  return append({ userId, key, kind, amount: coins, reason, actor, unspendDay: unspendDay ?? null });
}

/**
 * Sets a balance to an absolute value (administrator edit, renewal failure reset): one entry of the
 * difference from the head it is computed from. Null when the balance already is the target.
 */
export function setBalance(
  userId: Types.ObjectId | string,
  target: number,
  kind: Extract<LedgerKind, "admin_set" | "reset">,
  reason: string,
  actor: string,
  key = `${kind}:${randomUUID()}`,
): Promise<AppliedEntry | null> {
  if (!Number.isSafeInteger(target) || target < 0) throw new RangeError("balances are integers >= 0");
  return appendSet({ userId, key, kind, target, reason, actor });
}

export interface HoldInput {
  userId: Types.ObjectId | string;
  coins: number;
  key: string;
  feature: string;
  details?: string;
  queue: string;
  jobId: string;
  /** The user's daily spending cap in coins (null: none). */
  dailyCap?: number | null;
}

/** Holds the cost of a job when it is accepted (docs/ledger.md, point 5). */
export function hold(input: HoldInput): Promise<AppliedEntry> {
  if (input.coins < 1) throw new RangeError("a hold is at least 1 coin");
  return append({
    userId: input.userId,
    key: input.key,
    kind: "hold",
    amount: -input.coins,
    feature: input.feature,
    details: input.details ?? "",
    reason: `hold:${input.feature}`,
    holdState: "held",
    queue: input.queue,
    jobId: input.jobId,
    spend: { day: spendDayOf(), cap: input.dailyCap ?? null },
  });
}
