/**
 * What users spent, read from the ledger by aggregation: plain debits plus holds whose job
 * settled. Held (in-flight) and released holds are not spending, so their releases are not
 * subtracted either.
 */
import type { PipelineStage, Types } from "mongoose";

export const SPENT_MATCH: Record<string, unknown> = {
  $or: [{ kind: "debit" }, { kind: "hold", holdState: "settled" }],
};

/** Per user and feature: coins spent, for the users given. */
export function usageByUserPipeline(userIds: Types.ObjectId[]): PipelineStage[] {
  return [
    { $match: { ...SPENT_MATCH, userId: { $in: userIds } } },
    {
      $group: {
        _id: { userId: "$userId", feature: { $ifNull: ["$feature", "other"] } },
        total: { $sum: { $multiply: ["$amount", -1] } },
      },
    },
  ];
}
