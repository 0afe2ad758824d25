/**
 * A hold ends exactly once (docs/ledger.md, point 5): `held → settled`, or `held → releasing`, the
 * refund under `release:<hold key>`, then `released`. Each state change is one conditional update of
 * the hold's entry, so a settle and a release exclude each other; the refund's key makes it once.
 */
import { LedgerEntry, type LedgerEntryDoc } from "../models/ledger-entry";
import { append, type AppliedEntry } from "./chain";

/** A hold's entry (the fields asked for); null when there is no such hold. */
export function findHold<T extends object = { _id: unknown }>(
  holdKey: string,
  projection: Record<string, 1> = { _id: 1 },
): Promise<T | null> {
  return LedgerEntry.collection.findOne<T>({ key: holdKey, kind: "hold" }, { projection });
}

/** The job completed: the held coins are spent for good. True when this call settled it. */
export async function settleHold(holdKey: string): Promise<boolean> {
  const result = await LedgerEntry.collection.updateOne(
    { key: holdKey, kind: "hold", holdState: "held" },
    { $set: { holdState: "settled", updatedAt: new Date() } },
  );
  return result.modifiedCount === 1;
}

/**
 * The job failed, was cancelled or expired: the held coins go back, exactly once. Returns the refund
 * this call made; null when the hold was settled, or released (by this call's race or earlier).
 * A release cut short (left `releasing`) is finished by calling this again: the reconciler does.
 */
export async function releaseHold(holdKey: string, reason: string, actor = "worker"): Promise<AppliedEntry | null> {
  const claimed = await LedgerEntry.collection.findOneAndUpdate(
    { key: holdKey, kind: "hold", holdState: { $in: ["held", "releasing"] } },
    { $set: { holdState: "releasing", updatedAt: new Date() } },
    { returnDocument: "after" },
  );
  const hold = claimed as LedgerEntryDoc | null;
  if (!hold) return null;
  const refund = await append({
    userId: hold.userId,
    key: `release:${holdKey}`,
    kind: "release",
    amount: -hold.amount,
    feature: hold.feature ?? null,
    reason,
    actor,
    jobId: hold.jobId ?? null,
    queue: hold.queue ?? null,
    unspendDay: hold.spendDay ?? null,
  });
  await LedgerEntry.collection.updateOne(
    { _id: hold._id, holdState: "releasing" },
    { $set: { holdState: "released", updatedAt: new Date() } },
  );
  return refund.replayed ? null : refund;
}
