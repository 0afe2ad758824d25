/**
 * Videos (SPEC §7 videos/*): price, hold and queue the work through services/jobs.ts; the record
 * itself is owned by shared/server/videos.ts (opened here once the cost is held, read by the
 * GET calls, ended by the worker or the hold sweeper).
 */
import { Types } from "mongoose";
import { priceOf, VIDEO_TIMING, type VideoGenerateRequest, type VideoRecord } from "@storefront/shared";
import {
  findVideo,
  listVideos,
  loadWalletTables,
  openVideo,
  storedFileUrl,
  videoIdForJob,
  type VideoDoc,
} from "@storefront/shared/server";
import type { AppContext } from "../context";
import { notFound } from "../errors";
import { acceptJob, type JobCall } from "./jobs";

/** Seconds to show while a video processes: the provider's usual time (SPEC default 360 s). */
function estimatedVideoSeconds(ctx: AppContext, duration: number): number {
  return ctx.config.VIDEO_PROVIDER === "offline" ? Math.max(5, duration) : VIDEO_TIMING.defaultEstimatedSeconds;
}

function videoRecord(doc: VideoDoc): VideoRecord {
  const url = doc.key ? storedFileUrl(doc.key) : null;
  return {
    id: doc._id.toHexString(),
    status: doc.status,
    video_url: url,
    videoUrl: url,
    prompt: doc.prompt,
    duration: doc.duration,
    model: doc.model,
    ratio: doc.ratio,
    created_at: doc.createdAt.toISOString(),
    completed_at: doc.completedAt ? doc.completedAt.toISOString() : null,
    coins_used: doc.coinsUsed,
    estimated_time: doc.estimatedSeconds,
    error: doc.error ?? null,
  };
}

/**
 * POST videos/generate.php and videos/ai-store-generator.php: answer at once; the worker makes
 * the video and the client polls check-status (and gets "video:status" pushes). The record is
 * opened only once the cost is held, keyed by the job, so a retried request finds the same one.
 */
export async function startVideo(ctx: AppContext, input: VideoGenerateRequest, call: JobCall) {
  const { pricing } = await loadWalletTables();
  const cost = priceOf({ feature: "video", model: input.model, seconds: input.duration }, pricing);
  const estimated = estimatedVideoSeconds(ctx, input.duration);
  const accepted = await acceptJob(ctx, {
    queue: "video",
    name: "generate",
    userId: call.userId,
    feature: "video",
    cost,
    idempotencyKey: call.idempotencyKey,
    // A label only: the ledger outlives the prompt and the deleted video (docs/security.md).
    details: `Video ${input.model} ${input.duration}s`,
    payload: { prompt: input.prompt, seconds: input.duration, model: input.model, ratio: input.ratio },
    ...(call.requestId ? { requestId: call.requestId } : {}),
    beforeAdd: async (jobId) => {
      await openVideo(
        {
          jobId,
          userId: call.userId,
          prompt: input.prompt,
          duration: input.duration,
          model: input.model,
          ratio: input.ratio,
          resolution: input.resolution ?? null,
          coinsUsed: cost,
          estimatedSeconds: estimated,
        },
        ctx.pusher,
      );
    },
  });
  const doc = await findVideo(call.userId, videoIdForJob(accepted.jobId).toHexString());
  if (!doc) throw notFound("Video not found");
  return {
    success: true as const,
    video_id: doc._id.toHexString(),
    status: "processing" as const,
    estimated_time: doc.estimatedSeconds,
    cost_deducted: doc.coinsUsed,
    remaining_coins: accepted.remainingCoins,
    jobId: accepted.jobId,
  };
}

/** GET videos/check-status.php?id=: only the owner's videos exist for them. Reads only. */
export async function videoStatus(_ctx: AppContext, userId: string, id: string) {
  if (!Types.ObjectId.isValid(id) || !/^[a-f0-9]{24}$/iu.test(id)) throw notFound("Video not found");
  const doc = await findVideo(userId, id);
  if (!doc) throw notFound("Video not found");
  return { success: true as const, video: videoRecord(doc) };
}

/** GET videos/history.php and videos/get-history.php: newest first, in {success, videos}. Reads only. */
export async function videoHistory(_ctx: AppContext, userId: string) {
  const docs = await listVideos(userId);
  return { success: true as const, videos: docs.map(videoRecord) };
}
