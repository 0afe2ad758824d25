/**
 * The video processor on real Redis and the MongoDB-compatible server, with a scripted provider:
 * it must wait with delayed jobs (no BullMQ attempt used), settle on success and release once
 * on failure.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Queue, QueueEvents, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  createLogger,
  credit,
  hold,
  LedgerEntry,
  loadConfig,
  localDiskStorage,
  openVideo,
  Pusher,
  User,
  VideoModel,
} from "@storefront/shared/server";
import { ProviderError } from "../providers/errors";
import type { VideoProvider, VideoStatus } from "../providers/video/index";
import { setVideoProvider, videoProcessor } from "./video";

let redis: Redis;
let queue: Queue;
let events: QueueEvents;
let worker: Worker;
let dir: string;
const queueName = `video-unit-${randomUUID().slice(0, 8)}`;

/** A provider whose status answers come from a script, one per poll. */
const script: (() => VideoStatus)[] = [];
let statusCalls = 0;
const provider: VideoProvider = {
  name: "scripted",
  pollIntervalMs: 20,
  async submit() {
    return { taskId: `task-${randomUUID()}` };
  },
  async status() {
    statusCalls += 1;
    const next = script.shift();
    if (!next) throw new Error("script ran out");
    return next();
  },
};

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri"));
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  dir = mkdtempSync(path.join(tmpdir(), "video-unit-"));
  const config = loadConfig({
    ...process.env,
    MONGODB_URI: inject("mongoUri"),
    REDIS_URL: inject("redisUrl"),
    DATA_DIR: dir,
    VIDEO_POLL_INTERVAL_MS: "20",
    LOG_LEVEL: "silent",
  });
  const ctx = {
    config,
    redis,
    pusher: new Pusher(redis),
    storage: localDiskStorage(dir),
    log: createLogger("video-unit", "silent"),
  };
  setVideoProvider(provider);
  queue = new Queue(queueName, { connection: redis });
  events = new QueueEvents(queueName, { connection: redis.duplicate() });
  await events.waitUntilReady();
  worker = new Worker(queueName, videoProcessor(ctx), { connection: redis.duplicate(), concurrency: 2 });
  await worker.waitUntilReady();
});

afterAll(async () => {
  await worker?.close();
  await events?.close();
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  redis?.disconnect();
  await mongoose.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

/** A user with a held charge and a processing video, as the API leaves them. */
async function acceptedVideo(cost = 1000) {
  const user = await User.create({ phone: `+1999${Date.now()}${Math.floor(Math.random() * 1000)}`, passwordHash: "x" });
  const userId = user._id.toHexString();
  await credit(userId, 5000, `unit-credit:${userId}`, "credit", "test");
  const jobId = `unit-${randomUUID()}`;
  const holdKey = `unit-hold:${jobId}`;
  await hold({ userId, coins: cost, key: holdKey, feature: "video", details: "unit", queue: "video", jobId });
  const { doc } = await openVideo({
    jobId,
    userId,
    prompt: "p",
    duration: 5,
    model: "gen3a_turbo",
    ratio: "16:9",
    resolution: null,
    estimatedSeconds: 10,
    coinsUsed: cost,
  });
  const videoId = doc._id.toHexString();
  const data = { userId, holdKey, prompt: "p", seconds: 5, model: "gen3a_turbo", ratio: "16:9" };
  return { userId, videoId, holdKey, job: await queue.add("generate", data, { jobId, attempts: 3 }) };
}

async function finished(job: Job): Promise<"completed" | "failed"> {
  try {
    await job.waitUntilFinished(events, 20_000);
    return "completed";
  } catch {
    return "failed";
  }
}

async function coinsOf(userId: string): Promise<number> {
  return (await User.findById(userId, { coins: 1 }).lean<{ coins: number }>())!.coins;
}

describe("video processor", () => {
  it("polls through delayed jobs until completed, stores the file and settles the hold", async () => {
    statusCalls = 0;
    script.push(
      () => ({ state: "processing" }),
      () => ({ state: "processing" }),
      () => ({ state: "processing" }),
      () => ({ state: "completed", file: Buffer.from("....ftypisom-fake-mp4") }),
    );
    const { job, videoId, holdKey, userId } = await acceptedVideo();
    expect(await finished(job)).toBe("completed");
    expect(statusCalls).toBe(4);
    const done = (await queue.getJob(job.id!))!;
    // Only the finishing run counts as an attempt: waiting never used BullMQ's retries.
    expect(done.attemptsMade).toBe(1);
    expect(done.returnvalue).toEqual({
      videoId,
      status: "completed",
      key: `videos/${userId}/${videoId}.mp4`,
      videoUrl: `/api/media/videos/${userId}/${videoId}.mp4`,
    });
    const video = await VideoModel.findById(videoId).lean();
    expect(video).toMatchObject({ status: "completed", key: `videos/${userId}/${videoId}.mp4` });
    expect((await LedgerEntry.findOne({ key: holdKey }).lean())!.holdState).toBe("settled");
    expect(await coinsOf(userId)).toBe(4000);
  });

  it("a failed video releases the hold exactly once and records the reason", async () => {
    script.push(
      () => ({ state: "processing" }),
      () => ({ state: "failed", error: "Provider said no" }),
    );
    const { job, videoId, holdKey, userId } = await acceptedVideo();
    expect(await finished(job)).toBe("failed");
    expect(await VideoModel.findById(videoId).lean()).toMatchObject({ status: "failed", error: "Provider said no" });
    expect((await LedgerEntry.findOne({ key: holdKey }).lean())!.holdState).toBe("released");
    expect(await LedgerEntry.countDocuments({ userId, kind: "release" })).toBe(1);
    expect(await coinsOf(userId)).toBe(5000);
  });

  it("transient provider errors are retried by delaying the job, then given up on with one refund", async () => {
    for (let i = 0; i < 5; i++) {
      script.push(() => {
        throw new ProviderError("peer answered 503", { retryable: true, status: 503 });
      });
    }
    const { job, videoId, userId } = await acceptedVideo();
    expect(await finished(job)).toBe("failed");
    const failed = (await queue.getJob(job.id!))!;
    expect(failed.failedReason).toContain("503");
    expect(await VideoModel.findById(videoId).lean()).toMatchObject({ status: "failed" });
    expect(await LedgerEntry.countDocuments({ userId, kind: "release" })).toBe(1);
    expect(await coinsOf(userId)).toBe(5000);
    expect(script).toHaveLength(0);
  });

  it("a transient error followed by success completes with one charge", async () => {
    script.push(
      () => {
        throw new ProviderError("rate limited", { retryable: true, status: 429, retryAfterMs: 50 });
      },
      () => ({ state: "completed", file: Buffer.from("....ftyp-fake") }),
    );
    const { job, userId } = await acceptedVideo();
    expect(await finished(job)).toBe("completed");
    expect(await coinsOf(userId)).toBe(4000);
    expect(await LedgerEntry.countDocuments({ userId, kind: "release" })).toBe(0);
  });
});
