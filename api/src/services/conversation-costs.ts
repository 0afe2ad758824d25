/**
 * What a conversation has cost (docs/ledger.md, "Conversations"): its jobs (`conversationjobs`) and
 * the user's own hold and release entries of them. The ledger knows nothing of conversations; an
 * entry is counted whenever it lands, so no order between a save and a charge matters.
 */
import { Types } from "mongoose";
import { ConversationJob, LedgerEntry } from "@storefront/shared/server";

const isDuplicateKey = (error: unknown) => (error as { code?: number } | null)?.code === 11000;

/** Files the user's jobs under a conversation; a job already filed under one stays there. */
export async function fileJobs(userId: string, jobIds: readonly string[], conversationId: string): Promise<void> {
  const owner = new Types.ObjectId(userId);
  await Promise.all(
    [...new Set(jobIds)].map((jobId) =>
      ConversationJob.collection
        .updateOne({ userId: owner, jobId }, { $setOnInsert: { conversationId } }, { upsert: true })
        .catch((error: unknown) => {
          // Two filings of one job raced: the first stands.
          if (!isDuplicateKey(error)) throw error;
        }),
    ),
  );
}

/** Coins each of the user's conversations has cost so far: its jobs' holds less their refunds. */
export async function conversationCosts(userId: string, conversationIds: readonly string[]): Promise<Map<string, number>> {
  const costs = new Map<string, number>();
  if (conversationIds.length === 0) return costs;
  const owner = new Types.ObjectId(userId);
  const links = await ConversationJob.collection
    .find<{ jobId: string; conversationId: string }>(
      { userId: owner, conversationId: { $in: [...conversationIds] } },
      { projection: { _id: 0, jobId: 1, conversationId: 1 } },
    )
    .toArray();
  if (links.length === 0) return costs;
  const rows = await LedgerEntry.aggregate<{ _id: string; spent: number }>([
    { $match: { userId: owner, jobId: { $in: links.map((l) => l.jobId) }, kind: { $in: ["hold", "release"] } } },
    { $group: { _id: "$jobId", spent: { $sum: "$amount" } } },
  ]);
  const byJob = new Map(rows.map((row) => [row._id, row.spent]));
  for (const { jobId, conversationId } of links) {
    costs.set(conversationId, (costs.get(conversationId) ?? 0) - (byJob.get(jobId) ?? 0));
  }
  for (const [id, spent] of costs) costs.set(id, Math.max(0, spent));
  return costs;
}
