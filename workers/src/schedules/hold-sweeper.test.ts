import { Queue } from "bullmq";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { QUEUE_NAMES } from "@storefront/shared";
import {
  createLogger,
  credit,
  hold,
  jobIdForHold,
  LedgerEntry,
  migrateLedger,
  loadConfig,
  openVideo,
  User,
  VideoModel,
  type Pusher,
  type Queues,
  type Storage,
} from "@storefront/shared/server";
import type { ScheduleContext } from "./context";
import { sweepHolds } from "./hold-sweeper";

let redis: Redis;
let ctx: ScheduleContext;
const pushes: { event: string; payload: Record<string, unknown> }[] = [];
const HOUR = 3600_000;

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/sweeper_unit"));
  await Promise.all([User.createIndexes(), LedgerEntry.createIndexes()]);
  await migrateLedger(); // nothing to move: marks this database's ledger as the chain format
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  // Queues under their own prefix: no worker of the running stack touches these jobs.
  const prefix = `sweeper-test-${Date.now()}`;
  const queues = Object.fromEntries(QUEUE_NAMES.map((q) => [q, new Queue(q, { connection: redis, prefix })])) as Queues;
  const config = loadConfig({ MONGODB_URI: inject("mongoUri"), REDIS_URL: inject("redisUrl"), NODE_ENV: "test" });
  const pusher = {
    toUser: (_u: string, event: string, payload: Record<string, unknown>) => pushes.push({ event, payload }),
  } as unknown as Pusher;
  ctx = { config, redis, pusher, queues, storage: {} as Storage, log: createLogger("sweeper-test", "silent") };
});
afterAll(async () => {
  await Promise.all(Object.values(ctx.queues).map((q) => q.close()));
  redis.disconnect();
  await mongoose.disconnect();
});

let seq = 0;
async function heldFor(queue: "chat" | "image", withJob: boolean) {
  seq += 1;
  const user = await User.create({ phone: `+40${Date.now()}${seq}`, passwordHash: "x" });
  const userId = String(user._id);
  await credit(userId, 30, `seed:${userId}`, "credit", "seed");
  const holdKey = `job:${queue}:${userId}:${seq}`;
  const jobId = jobIdForHold(queue, holdKey);
  await hold({ userId, coins: 10, key: holdKey, feature: queue === "chat" ? "text" : "image", queue, jobId });
  if (withJob) await ctx.queues[queue].add("x", { userId, holdKey }, { jobId });
  return { userId, holdKey, jobId };
}

/** Moves a hold's creation into the past (mongoose keeps createdAt immutable, so the driver does it). */
const backdate = (key: string, ms: number) => LedgerEntry.collection.updateOne({ key }, { $set: { createdAt: new Date(ms) } });
const stateOf = async (key: string) => (await LedgerEntry.findOne({ key }).lean())?.holdState;
const coinsOf = async (id: string) => (await User.findById(id).lean<{ coins: number }>())!.coins;

describe("sweepHolds", () => {
  it("leaves young holds and waiting jobs alone, releases lost and expired ones", async () => {
    const fresh = await heldFor("chat", false);
    const waiting = await heldFor("image", true);
    const expired = await heldFor("image", true);
    const lost = await heldFor("chat", false);
    await backdate(expired.holdKey, Date.now() - 7 * HOUR);
    await backdate(lost.holdKey, Date.now() - 5 * 60_000);
    await backdate(waiting.holdKey, Date.now() - 5 * 60_000);

    const report = await sweepHolds(ctx);
    expect(report.released).toBe(2);
    expect(await stateOf(fresh.holdKey)).toBe("held");
    expect(await stateOf(waiting.holdKey)).toBe("held");
    expect(await ctx.queues.image.getJob(waiting.jobId)).toBeDefined();
    expect(await stateOf(lost.holdKey)).toBe("released");
    expect(await coinsOf(lost.userId)).toBe(30);
    expect(await stateOf(expired.holdKey)).toBe("released");
    expect(await ctx.queues.image.getJob(expired.jobId)).toBeUndefined();
    expect(await coinsOf(expired.userId)).toBe(30);
    expect(pushes.filter((p) => p.event === "job:failed").map((p) => p.payload.refunded)).toEqual([10, 10]);

    const again = await sweepHolds(ctx);
    expect(again.released).toBe(0);
    expect(await LedgerEntry.countDocuments({ key: `release:${lost.holdKey}` })).toBe(1);
  });

  it("refunds a hold whose stored queue is no known queue, without a job:failed push naming it", async () => {
    const lost = await heldFor("chat", false);
    await LedgerEntry.collection.updateOne({ key: lost.holdKey }, { $set: { queue: "retired-queue" } });
    await backdate(lost.holdKey, Date.now() - 5 * 60_000);
    pushes.length = 0;

    const report = await sweepHolds(ctx);
    expect(report.released).toBe(1);
    expect(await stateOf(lost.holdKey)).toBe("released");
    expect(await coinsOf(lost.userId)).toBe(30);
    expect(pushes.filter((p) => p.event === "job:failed")).toEqual([]);
    expect(pushes.find((p) => p.event === "wallet:updated")?.payload).toEqual({ coins: 30, reason: "release" });
  });

  it("fails a stale processing video and refunds it once, on every later run too", async () => {
    seq += 1;
    const user = await User.create({ phone: `+40${Date.now()}${seq}`, passwordHash: "x" });
    const userId = String(user._id);
    await credit(userId, 30, `seed:${userId}`, "credit", "seed");
    const holdKey = `job:video:${userId}:${seq}`;
    const jobId = jobIdForHold("video", holdKey);
    await hold({ userId, coins: 10, key: holdKey, feature: "video", queue: "video", jobId });
    const { doc } = await openVideo({
      jobId,
      userId,
      prompt: "p",
      duration: 5,
      model: "gen3a_turbo",
      ratio: "16:9",
      resolution: null,
      coinsUsed: 10,
      estimatedSeconds: 10,
    });
    // The API died after the hold and the record, before adding the job; long ago.
    await backdate(holdKey, Date.now() - 2 * HOUR);
    await VideoModel.collection.updateOne({ _id: doc._id }, { $set: { createdAt: new Date(Date.now() - 2 * HOUR) } });
    pushes.length = 0;

    const report = await sweepHolds(ctx);
    expect(report.videosEnded).toBe(1);
    expect(await VideoModel.findById(doc._id).lean()).toMatchObject({ status: "failed", error: expect.any(String) });
    expect(await coinsOf(userId)).toBe(30);
    expect(pushes.find((p) => p.event === "video:status")?.payload).toMatchObject({ status: "failed", jobId });

    const again = await sweepHolds(ctx);
    expect(again.videosEnded).toBe(0);
    expect(await LedgerEntry.countDocuments({ key: `release:${holdKey}` })).toBe(1);
    expect(await coinsOf(userId)).toBe(30);
  });
});
