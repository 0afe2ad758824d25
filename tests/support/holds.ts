/** Helpers for suites that kill or freeze parts of a stack of their own and then check every coin hold ended. */
import type mongoose from "mongoose";
import { LedgerEntry, reconcileLedger } from "@storefront/shared/server";
import { until } from "./realtime";

/** These users' holds still open: held, or their release under way. Needs a mongoose connection to the stack. */
export function openHolds(ids: mongoose.Types.ObjectId[]) {
  return LedgerEntry.find(
    { userId: { $in: ids }, kind: "hold", holdState: { $in: ["held", "releasing"] } },
    { kind: 1, holdState: 1, createdAt: 1, jobId: 1 },
  ).lean();
}

/**
 * Waits until every hold of these users is settled or released (and `alsoDone` holds), running the
 * ledger's reconciler (what `npm run reconcile` does: releases cut short are finished, users' copies
 * of their head brought forward) before each look, every `everyMs`. A timeout names the open holds.
 */
export async function untilHoldsEnd(
  ids: mongoose.Types.ObjectId[],
  { timeoutMs, everyMs, alsoDone = async () => true }: { timeoutMs: number; everyMs: number; alsoDone?: () => Promise<boolean> },
): Promise<void> {
  try {
    await until(
      async () => {
        await reconcileLedger();
        return (await openHolds(ids)).length === 0 && (await alsoDone()) ? true : undefined;
      },
      timeoutMs,
      "every hold settled or released",
      everyMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}: ${JSON.stringify(await openHolds(ids))}`);
  }
}
