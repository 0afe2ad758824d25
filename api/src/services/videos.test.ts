import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openVideo, VideoModel } from "@storefront/shared/server";
import type { AppContext } from "../context";
import { videoHistory, videoStatus } from "./videos";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/videos_unit"));
});
afterAll(async () => {
  await mongoose.disconnect();
});

/** A context every use of which fails the test: reading a video needs no queue, no push. */
const untouchable = new Proxy({} as AppContext, {
  get: (_, key) => {
    throw new Error(`a video read used ctx.${String(key)}`);
  },
});

describe("video reads", () => {
  it("never write: a stale processing video whose job is gone is shown as it is (the sweeper ends it)", async () => {
    const userId = new mongoose.Types.ObjectId().toHexString();
    const { doc } = await openVideo({
      jobId: `video-gone-${Date.now()}`,
      userId,
      prompt: "stale",
      duration: 5,
      model: "gen3a_turbo",
      ratio: "16:9",
      resolution: null,
      coinsUsed: 1000,
      estimatedSeconds: 10,
    });
    await VideoModel.collection.updateOne({ _id: doc._id }, { $set: { createdAt: new Date(Date.now() - 24 * 3600_000) } });
    const before = await VideoModel.collection.findOne({ _id: doc._id });

    const status = await videoStatus(untouchable, userId, doc._id.toHexString());
    const history = await videoHistory(untouchable, userId);

    expect(status.video).toMatchObject({ id: doc._id.toHexString(), status: "processing" });
    expect(history.videos).toMatchObject([{ id: doc._id.toHexString(), status: "processing" }]);
    expect(await VideoModel.collection.findOne({ _id: doc._id })).toEqual(before);
  });

  it("a retried request (same job id) finds the record the first one opened", async () => {
    const input = {
      jobId: `video-retry-${Date.now()}`,
      userId: new mongoose.Types.ObjectId().toHexString(),
      prompt: "once",
      duration: 5,
      model: "gen3a_turbo" as const,
      ratio: "16:9" as const,
      resolution: null,
      coinsUsed: 1000,
      estimatedSeconds: 10,
    };
    const [a, b] = await Promise.all([openVideo(input), openVideo(input)]);
    expect(b.doc._id.toHexString()).toBe(a.doc._id.toHexString());
    expect([a.opened, b.opened].filter(Boolean)).toHaveLength(1);
    expect(await VideoModel.countDocuments({ jobId: input.jobId })).toBe(1);
  });
});
