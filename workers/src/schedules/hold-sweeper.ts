/**
 * Releases holds whose job can no longer settle them, so no coin is ever stuck: the job is
 * missing (the API died between the hold and the add), failed without its refund (stalled too
 * often, or the refund write failed), or has waited past HOLD_MAX_AGE_MS (expired). A video
 * whose job can no longer end it is failed here too (polling must end, and GETs never write).
 */
import { CHARGED_QUEUES, isHeldQueue, JOB_FAILURE_TEXT, parseJobFailure, type ChargedQueueName } from "@storefront/shared";
import {
  completeVideo,
  failVideo,
  LedgerEntry,
  releaseHold,
  settleHold,
  staleVideos,
  videoFileKey,
} from "@storefront/shared/server";
import type { ScheduleContext } from "./context";

export interface SweepReport {
  checked: number;
  released: number;
  settled: number;
  /** Videos still "processing" that were ended because their job can no longer end them. */
  videosEnded: number;
}

type Verdict = "missing" | "failed" | "expired" | "completed" | "running";

/** Holds (and stale videos) examined per run; the next run picks up the rest. */
const BATCH = 500;
/** How long past VIDEO_MAX_WAIT_MS a video may still be "processing" before it is ended here. */
const STALE_VIDEO_GRACE_MS = 5 * 60_000;

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
  const report: SweepReport = { checked: 0, released: 0, settled: 0, videosEnded: 0 };
  const cutoff = new Date(now.getTime() - ctx.config.HOLD_SWEEP_AFTER_MS);
  const holds = await LedgerEntry.find(
    { kind: "hold", holdState: "held", createdAt: { $lt: cutoff } },
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
    const reason = verdict === "expired" ? "The request expired before it could run" : "The request could not be completed";
    if (hold.queue === "video" && hold.jobId && (await failVideo(hold.jobId, reason, ctx.pusher))) report.videosEnded += 1;
    if (!refund) continue;
    report.released += 1;
    const userId = hold.userId.toString();
    ctx.log.warn({ holdKey: hold.key, jobId: hold.jobId, queue: hold.queue, verdict }, "released a stuck hold");
    // A stored queue name this code does not know (a retired queue, a hand-edited entry) has no
    // screen waiting on it: the refund and the balance push still go out, the job:failed push does not.
    if (isHeldQueue(hold.queue))
      ctx.pusher.toUser(userId, "job:failed", {
        jobId: hold.jobId ?? "",
        queue: hold.queue,
        code: "job_failed",
        error: JOB_FAILURE_TEXT.job_failed,
        refunded: refund.amount,
      });
    else ctx.log.warn({ holdKey: hold.key, queue: hold.queue }, "released hold names no known queue: no job:failed push");
    if (refund.balanceAfter !== null)
      ctx.pusher.toUser(userId, "wallet:updated", { coins: refund.balanceAfter, reason: "release" });
  }
  report.videosEnded += await endStaleVideos(ctx, now);
  return report;
}

/**
 * Videos still "processing" well past the longest a video may take, whose job ended without
 * recording it (the worker died between the refund or settle and the record): a failed or lost
 * job fails the video, a completed one completes it. Holds still held are refunded by the pass
 * above, once their own time has come.
 */
async function endStaleVideos(ctx: ScheduleContext, now: Date): Promise<number> {
  const before = new Date(now.getTime() - ctx.config.VIDEO_MAX_WAIT_MS - STALE_VIDEO_GRACE_MS);
  let ended = 0;
  for (const video of await staleVideos(before, BATCH)) {
    const job = video.jobId ? await ctx.queues.video.getJob(video.jobId) : undefined;
    const state = job ? await job.getState() : "missing";
    const jobId = video.jobId ?? "";
    if (state === "completed") {
      const key = videoFileKey(String(video.userId), video._id.toHexString());
      if (await completeVideo(jobId, key, ctx.pusher)) ended += 1;
    } else if (state === "failed" || state === "missing" || state === "unknown") {
      const reason = job?.failedReason ? parseJobFailure(job.failedReason).detail.slice(0, 300) : "Video generation failed";
      if (await failVideo(jobId, reason, ctx.pusher)) ended += 1;
    }
  }
  return ended;
}
