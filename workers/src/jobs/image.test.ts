/** The image job's own rules, run directly against the MongoDB-compatible server and a temp store. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Job } from "bullmq";
import { Redis } from "ioredis";
import mongoose, { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ImageJobData } from "@storefront/shared";
import { createLogger, ImageModel, loadConfig, localDiskStorage, Pusher, type Storage } from "@storefront/shared/server";
import type { ImageProvider } from "../providers/image/index";
import { imageProcessor, runImage, setImageProvider } from "./image";
import { readStored } from "./stored-files";
import type { WorkerContext } from "../context";

let redis: Redis;
let dir: string;
let storage: Storage;
const calls: string[] = [];
const provider: ImageProvider = {
  name: "scripted",
  async generate(req) {
    calls.push(`generate:${req.prompt}:${req.size}`);
    return Buffer.from("generated-png");
  },
  async edit(req) {
    calls.push(`edit:${req.prompt}:${req.strength}:${req.image.toString()}`);
    return Buffer.from("edited-png");
  },
};

let ctx: WorkerContext;

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri"));
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  dir = mkdtempSync(path.join(tmpdir(), "image-unit-"));
  const config = loadConfig({ ...process.env, MONGODB_URI: inject("mongoUri"), REDIS_URL: inject("redisUrl"), DATA_DIR: dir });
  storage = localDiskStorage(dir);
  ctx = { config, redis, pusher: new Pusher(redis), storage, log: createLogger("image-unit", "silent") };
  setImageProvider(provider);
});

afterAll(async () => {
  redis.disconnect();
  await mongoose.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

const job = { id: "image-unit-job" } as Job;

function data(extra: Partial<ImageJobData> = {}): ImageJobData {
  return {
    userId: new Types.ObjectId().toHexString(),
    holdKey: "unit-hold",
    mode: "generate",
    imageId: new Types.ObjectId().toHexString(),
    prompt: "Professional logo for tea",
    userPrompt: "tea",
    size: "1024x1024",
    agent: "logo-maker",
    ...extra,
  };
}

describe("image job", () => {
  it("stores the picture, records it with the user's own prompt, and a rerun answers the same without a new call", async () => {
    const input = data();
    calls.length = 0;
    const first = await runImage(ctx, input, job);
    const key = `images/${input.userId}/${input.imageId}.png`;
    expect(first.image).toMatchObject({
      id: input.imageId,
      url: `/api/media/${key}`,
      prompt: "tea",
      size: "1024x1024",
      mode: "generate",
    });
    expect(calls).toEqual(["generate:Professional logo for tea:1024x1024"]);
    expect((await readStored(storage, key))!.toString()).toBe("generated-png");
    expect(await ImageModel.countDocuments({ userId: input.userId })).toBe(1);
    const again = await runImage(ctx, input, job);
    expect(again).toEqual(first);
    expect(calls).toHaveLength(1);
  });

  it("an edit reads the stored upload, passes the strength, and removes the upload afterwards", async () => {
    const input = data({ mode: "edit", strength: 0.3, agent: "picture-enhancer", prompt: "brighter" });
    const sourceKey = `uploads/${input.userId}/${input.imageId}.png`;
    await storage.put(sourceKey, Buffer.from("uploaded"));
    calls.length = 0;
    const result = await runImage(ctx, { ...input, sourceKey }, job);
    expect(calls).toEqual(["edit:brighter:0.3:uploaded"]);
    expect(result.image.mode).toBe("edit");
    expect(await readStored(storage, sourceKey)).toBeNull();
  });

  it("refuses a payload that is not an image job, and an edit whose upload is gone, as permanent", async () => {
    const invalid = { id: "image-unit-invalid", data: { ...data(), size: "12x12" }, attemptsMade: 0, opts: {} } as unknown as Job;
    await expect(imageProcessor(ctx)(invalid)).rejects.toMatchObject({
      name: "UnrecoverableError",
      message: expect.stringContaining("invalid job payload"),
    });
    const gone = data({ mode: "edit", strength: 0.5, sourceKey: "uploads/0123456789abcdef01234567/missing.png" });
    await expect(runImage(ctx, gone, job)).rejects.toMatchObject({
      name: "UnrecoverableError",
      message: expect.stringContaining("no longer available"),
    });
  });
});
