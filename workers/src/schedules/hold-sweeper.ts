/**
 * Releases holds whose job can no longer settle them, so no coin is ever stuck: the job is
 * missing (the API died between the hold and the add), failed without its refund (stalled too
 * often, or the refund write failed), or has waited past HOLD_MAX_AGE_MS (expired).
 */
import { CHARGED_QUEUES, JOB_FAILURE_TEXT, type ChargedQueueName } from "@storefront/shared";
import { LedgerEntry, releaseHold, settleHold } from "@storefront/shared/server";
import type { ScheduleContext } from "./context";

export interface SweepReport {
  checked: number;
  released: number;
  settled: number;
}

type Verdict = "missing" | "failed" | "expired" | "completed" | "running";

/** Holds examined per run; the next run picks up the rest. */
const BATCH = 500;

function isChargedQueue(name: string | null | undefined): name is ChargedQueueName {
  return (CHARGED_QUEUES as readonly string[]).includes(name ?? "");
}

async function verdictOf(
  ctx: ScheduleContext,
  queueName: string | null | undefined,
  jobId: string | null | undefined,
  ageMs: number,
): Promise<Verdict> {
  if (!isChargedQueue(queueName) || !jobId) return "missing";
  const job = await ctx.queues[queueName].getJob(jobId);
  if (!job) return "missing";
  const state = await job.getState();
  if (state === "completed") return "completed";
  if (state === "failed") return "failed";
  if (state === "unknown") return "missing";
  if (state === "active" || ageMs < ctx.config.HOLD_MAX_AGE_MS) return "running";
  // Waiting or delayed far too long: take the job out first so it cannot run after the refund.
  try {
    await job.remove();
    return "expired";
  } catch {
    return "running";
  }
}

export async function sweepHolds(ctx: ScheduleContext, now = new Date()): Promise<SweepReport> {
  const report: SweepReport = { checked: 0, released: 0, settled: 0 };
  const cutoff = new Date(now.getTime() - ctx.config.HOLD_SWEEP_AFTER_MS);
  const holds = await LedgerEntry.find(
    { kind: "hold", state: "applied", holdState: "held", createdAt: { $lt: cutoff } },
    { key: 1, userId: 1, queue: 1, jobId: 1, createdAt: 1 },
  )
    .sort({ createdAt: 1 })
    .limit(BATCH)
    .lean<{ key: string; userId: { toString(): string }; queue: string | null; jobId: string | null; createdAt: Date }[]>();

  for (const hold of holds) {
    report.checked += 1;
    const verdict = await verdictOf(ctx, hold.queue, hold.jobId, now.getTime() - hold.createdAt.getTime());
    if (verdict === "running") continue;
    if (verdict === "completed") {
      // The worker finished but died before settling: the work was delivered, so it is paid for.
      if (await settleHold(hold.key)) report.settled += 1;
      continue;
    }
    const refund = await releaseHold(hold.key, `job ${verdict}: released by the sweeper`, "sweeper");
    if (!refund) continue;
    report.released += 1;
    const userId = hold.userId.toString();
    ctx.log.warn({ holdKey: hold.key, jobId: hold.jobId, verdict }, "released a stuck hold");
    ctx.pusher.toUser(userId, "job:failed", {
      jobId: hold.jobId ?? "",
      queue: hold.queue ?? "",
      code: "job_failed",
      error: JOB_FAILURE_TEXT.job_failed,
      refunded: refund.amount,
    });
    if (refund.balanceAfter !== null)
      ctx.pusher.toUser(userId, "wallet:updated", { coins: refund.balanceAfter, reason: "release" });
  }
  return report;
}
