/**
 * Finishes what a crash cut short (docs/ledger.md, point 6): releases left `releasing`, and users'
 * copies of their head left behind their chain. Every step is one the ledger's own calls take, so
 * any number of processes may run it at once, at any time.
 */
import type { Types } from "mongoose";
import { LedgerEntry, type LedgerEntryDoc } from "../models/ledger-entry";
import { User } from "../models/user";
import { copyHead, toObjectId } from "./chain";
import { LedgerInProgressError } from "./errors";
import { releaseHold } from "./holds";

export interface ReconcileReport {
  /** Releases finished: the refund written now, or found written and the hold marked released. */
  releasesFinished: number;
  /** Users whose `coins` was brought forward to their chain's head. */
  copiesMoved: number;
}

/** How far back the scheduled run looks for users whose copy may be behind (`npm run reconcile`: all). */
export const RECONCILE_WINDOW_MS = 3600_000;

export async function reconcileLedger(now = new Date(), windowMs = RECONCILE_WINDOW_MS): Promise<ReconcileReport> {
  const report: ReconcileReport = { releasesFinished: 0, copiesMoved: 0 };

  const releasing = await LedgerEntry.collection
    .find<{ key: string }>({ holdState: "releasing" }, { projection: { key: 1 } })
    .toArray();
  for (const { key } of releasing) {
    try {
      await releaseHold(key, "release finished by reconciler", "reconciler");
      report.releasesFinished += 1;
    } catch (error) {
      // Its refund lost its place too often now: the next run tries again; the others go on.
      if (!(error instanceof LedgerInProgressError)) throw error;
    }
  }

  const recent = Number.isFinite(windowMs) ? { createdAt: { $gte: new Date(now.getTime() - windowMs) } } : {};
  const heads = await LedgerEntry.aggregate<{ _id: Types.ObjectId; seq: number }>([
    { $match: recent },
    { $group: { _id: "$userId", seq: { $max: "$seq" } } },
  ]);
  const users = await User.collection
    .find<{ _id: Types.ObjectId; ledgerSeq?: number }>(
      { _id: { $in: heads.map((h) => h._id) } },
      { projection: { ledgerSeq: 1 } },
    )
    .toArray();
  const copied = new Map(users.map((u) => [u._id.toHexString(), u.ledgerSeq ?? 0]));
  for (const head of heads) {
    if ((copied.get(head._id.toHexString()) ?? Infinity) >= head.seq) continue;
    const entry = await LedgerEntry.collection.findOne<LedgerEntryDoc>({ userId: head._id, seq: head.seq });
    if (entry) {
      await copyHead(entry);
      report.copiesMoved += 1;
    }
  }
  return report;
}

/** Sum of a user's entries: equals the balance once the copy is current. */
export async function ledgerSum(userId: Types.ObjectId | string): Promise<number> {
  const rows = await LedgerEntry.aggregate<{ total: number }>([
    { $match: { userId: toObjectId(userId) } },
    { $group: { _id: null, total: { $sum: "$amount" } } },
  ]);
  return rows[0]?.total ?? 0;
}
