/**
 * The "video" queue. One job per video, stepped with delayed jobs, never by sleeping: submit to
 * the provider, then move the job to the delayed set and poll its status when it comes back,
 * until the video is completed (stored, hold settled) or failed (hold released once). Transient
 * provider errors are retried the same way, with backoff, so BullMQ's own attempts are kept for
 * faults of our side. Every step runs inside chargedProcessor, which parses the payload once and
 * settles or releases when the video ends.
 */
import { DelayedError, UnrecoverableError, type Job, type Processor } from "bullmq";
import type { JobResultInput, VideoJobData } from "@storefront/shared";
import { completeVideo, failVideo, recordVideoTask, storedFileUrl, videoFileKey, videoIdForJob } from "@storefront/shared/server";
import { isProviderError } from "../providers/errors";
import { createVideoProvider, type VideoProvider } from "../providers/video/index";
import type { WorkerContext } from "../context";
import { chargedProcessor } from "./charged";

/** Consecutive transient provider errors tolerated before the video is failed. */
const MAX_TRANSIENT_ERRORS = 5;
const MAX_BACKOFF_MS = 60_000;

let provider: VideoProvider | undefined;

function videoProvider(ctx: WorkerContext): VideoProvider {
  provider ??= createVideoProvider(ctx.config);
  return provider;
}

/** Lets tests run the processor against a provider of their own. */
export function setVideoProvider(next: VideoProvider): void {
  provider = next;
}

/** What a finished video step returns (jobResults.video). */
type VideoJobResult = JobResultInput<"video">;

function pollInterval(ctx: WorkerContext): number {
  return ctx.config.VIDEO_POLL_INTERVAL_MS ?? videoProvider(ctx).pollIntervalMs;
}

const fail = (reason: string) => async (): Promise<never> => {
  throw new UnrecoverableError(reason);
};

/** What the job does next: come back later, or end (chargedProcessor settles or releases). */
type Step =
  | { kind: "later"; patch: Partial<VideoJobData>; delayMs: number }
  | { kind: "finish"; outcome: () => Promise<VideoJobResult> };

async function nextStep(ctx: WorkerContext, job: Job, data: VideoJobData): Promise<Step> {
  const { config, log, pusher, storage } = ctx;
  const jobId = job.id ?? "";
  try {
    if (!data.taskId) {
      const { taskId } = await videoProvider(ctx).submit({
        prompt: data.prompt,
        seconds: data.seconds,
        model: data.model,
        ratio: data.ratio,
      });
      await recordVideoTask(jobId, taskId);
      pusher.toUser(data.userId, "job:progress", { jobId, queue: "video", progress: 5, stage: "submitted" });
      return { kind: "later", patch: { taskId, submittedAt: Date.now(), pollErrors: 0 }, delayMs: pollInterval(ctx) };
    }
    if (Date.now() - (data.submittedAt ?? 0) > config.VIDEO_MAX_WAIT_MS)
      return { kind: "finish", outcome: fail("Video generation timed out") };
    const status = await videoProvider(ctx).status(data.taskId);
    if (status.state === "processing") return { kind: "later", patch: { pollErrors: 0 }, delayMs: pollInterval(ctx) };
    if (status.state === "failed") return { kind: "finish", outcome: fail(status.error ?? "Video generation failed") };
    const file = status.file;
    if (!file) return { kind: "finish", outcome: fail("The provider finished without a video file") };
    const videoId = videoIdForJob(jobId).toHexString();
    const key = videoFileKey(data.userId, videoId);
    return {
      kind: "finish",
      outcome: async () => {
        await storage.put(key, file);
        return { videoId, status: "completed", key, videoUrl: storedFileUrl(key) };
      },
    };
  } catch (error) {
    const errors = (data.pollErrors ?? 0) + 1;
    if (isProviderError(error) && error.retryable && errors < MAX_TRANSIENT_ERRORS) {
      log.warn({ queue: "video", jobId, err: error, errors }, "video provider error; trying again later");
      const backoff = Math.min(MAX_BACKOFF_MS, pollInterval(ctx) * 2 ** errors);
      return { kind: "later", patch: { pollErrors: errors }, delayMs: Math.max(backoff, error.retryAfterMs ?? 0) };
    }
    if (isProviderError(error) && error.retryable) {
      // The video's own retry budget is spent: BullMQ's attempts would only poll the same fault again.
      return { kind: "finish", outcome: fail(`Video generation failed: ${error.message}`) };
    }
    // Permanent provider errors and faults of ours: the charged step decides (retry or release).
    return { kind: "finish", outcome: () => Promise.reject(error) };
  }
}

/** One step of the video's life; `data` was parsed by chargedProcessor. */
async function runVideoStep(ctx: WorkerContext, data: VideoJobData, job: Job, token?: string): Promise<VideoJobResult> {
  const step = await nextStep(ctx, job, data);
  if (step.kind === "finish") return step.outcome();
  await job.updateData({ ...data, ...step.patch });
  await job.moveToDelayed(Date.now() + step.delayMs, token);
  // Tells BullMQ the job was moved to the delayed set on purpose (not a failure, not an attempt).
  throw new DelayedError();
}

/** The charged processor; the video record follows the job's final outcome. */
export function videoProcessor(ctx: WorkerContext): Processor {
  return chargedProcessor(ctx, "video", (data, job, token) => runVideoStep(ctx, data, job, token), {
    async onCompleted(_data, result, job) {
      await completeVideo(job.id ?? "", result.key, ctx.pusher);
    },
    // A settled hold means the file was stored under its fixed key: no second generation.
    finishedResult(data, job) {
      const videoId = videoIdForJob(job.id ?? "").toHexString();
      const key = videoFileKey(data.userId, videoId);
      return { videoId, status: "completed", key, videoUrl: storedFileUrl(key) };
    },
    async onFinalFailure(_data, reason, job) {
      await failVideo(job.id ?? "", reason, ctx.pusher);
    },
  });
}
