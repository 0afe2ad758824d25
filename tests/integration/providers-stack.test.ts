/**
 * The image and video jobs against HTTP providers, end to end: a stack of its own whose workers
 * use the OpenAI images API and the Runway-style video API, both played by local peers. Covers
 * permanent refusals (no retry, refund once), transient faults (retried, charged once), and the
 * video worker's delayed status polls.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "@storefront/shared";
import { LedgerEntry } from "@storefront/shared/server";
import { startStack, type Stack } from "../../scripts/lib/stack";
import { isMp4 } from "../peers/media";
import { OpenAiPeer } from "../peers/openai";
import { RunwayPeer } from "../peers/runway";
import { Client, walletCoins } from "../support/client";
import { userWithCoins } from "../support/realtime";

const openai = new OpenAiPeer("sk-stack");
const runway = new RunwayPeer("key_stack");
let stack: Stack;
let dataDir: string;
let baseUrl: string;

beforeAll(async () => {
  const [openaiUrl, runwayUrl] = await Promise.all([openai.start(), runway.start()]);
  dataDir = mkdtempSync(path.join(tmpdir(), "storefront-providers-"));
  stack = await startStack({
    dataDir,
    persist: false,
    logDir: path.resolve("test-artifacts/logs/providers-stack"),
    workers: ["image,video"],
    env: {
      NODE_ENV: "test",
      SESSION_SECRET: "test-session-secret-0123456789",
      LOG_LEVEL: "info",
      IMAGE_PROVIDER: "openai",
      OPENAI_BASE_URL: `${openaiUrl}/v1`,
      OPENAI_API_KEY: "sk-stack",
      OPENAI_IMAGE_MODEL: "dall-e-3",
      VIDEO_PROVIDER: "runway",
      VIDEO_API_BASE_URL: runwayUrl,
      VIDEO_API_KEY: "key_stack",
      VIDEO_POLL_INTERVAL_MS: "150",
      AI_TIMEOUT_MS: "3000",
      JOB_ATTEMPTS: "3",
      JOB_BACKOFF_MS: "100",
      JOB_WAIT_TIMEOUT_MS: "20000",
    },
  });
  baseUrl = stack.apiUrls[0]!;
  await mongoose.connect(stack.mongoUri);
}, 120_000);

afterAll(async () => {
  await mongoose.disconnect();
  await stack?.stop();
  await Promise.all([openai.stop(), runway.stop()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function releases(userId: string): Promise<number> {
  return LedgerEntry.countDocuments({ userId, kind: "release" });
}

async function waitForVideo(client: Client, id: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/videos/check-status.php?id=${id}`);
    if (res.body.video?.status !== "processing") return res.body.video;
    if (Date.now() > deadline) throw new Error("video still processing");
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function download(client: Client, url: string): Promise<Buffer> {
  const res = await fetch(`${baseUrl}${url}`, { headers: { cookie: client.cookieHeader() } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe("image jobs on the OpenAI images API", () => {
  it("a picture from the API is stored at the exact SPEC size and charged once", async () => {
    const { client } = await userWithCoins(baseUrl, 100);
    const res = await client.post("/images/generate.php", { prompt: "a blue square", agent: "whatsapp-poster" });
    expect(res.status).toBe(200);
    const meta = await sharp(await download(client, res.body.imageUrl)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1080, 1920]);
    const sent = JSON.parse(
      openai
        .requestsTo(/generations/u)
        .at(-1)!
        .body.toString(),
    );
    expect(sent.prompt).toBe('Elegant vertical quote poster, 9:16, with the text "a blue square" in beautiful typography');
    expect(await walletCoins(client)).toBe(80);
  });

  it("a content refusal fails at once (no retry), says it was refused, and refunds exactly once", async () => {
    const { client, id } = await userWithCoins(baseUrl, 100);
    const before = openai.requestsTo(/generations/u).length;
    const res = await client.post("/images/generate.php", { prompt: "something forbidden" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.success).toBe(false);
    expect(res.body).toMatchObject({ code: "ai_refused", error: MESSAGES.aiRefused });
    expect(openai.requestsTo(/generations/u).length - before).toBe(1);
    expect(await walletCoins(client)).toBe(100);
    expect(await releases(id)).toBe(1);
    expect((await client.get("/images/history.php")).body.images).toEqual([]);
  });

  it("a 503 then a 429 with Retry-After are retried, and the picture is charged once", async () => {
    const { client, id } = await userWithCoins(baseUrl, 100);
    openai.failNext(/generations/u, { kind: "status", status: 503 });
    openai.failNext(/generations/u, { kind: "status", status: 429, headers: { "retry-after": "1" } });
    const before = openai.requestsTo(/generations/u).length;
    const started = Date.now();
    const res = await client.post("/images/generate.php", { prompt: "eventually" });
    expect(res.status).toBe(200);
    expect(openai.requestsTo(/generations/u).length - before).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await walletCoins(client)).toBe(80);
    expect(await releases(id)).toBe(0);
  });

  it("an edit goes to /images/edits as multipart and its upload is not kept", async () => {
    const { client, id } = await userWithCoins(baseUrl, 100);
    const form = new FormData();
    form.set("prompt", "invert");
    form.set("strength", "1");
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    form.set("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "red.png");
    const res = await client.post("/images/edit.php", form);
    expect(res.status).toBe(200);
    const stats = await sharp(await download(client, res.body.imageUrl)).stats();
    // The peer negates: red becomes cyan at strength 1.
    expect(stats.channels[0]!.mean).toBeLessThan(10);
    expect(stats.channels[1]!.mean).toBeGreaterThan(245);
    const uploads = path.join(dataDir, "media", "uploads", id);
    expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);
  });
});

describe("video jobs on the Runway-style API", () => {
  it("polls with delayed jobs until SUCCEEDED, stores the MP4 and settles the charge", async () => {
    const { client, id } = await userWithCoins(baseUrl, 2000);
    const res = await client.post("/videos/ai-store-generator.php", { prompt: "clouds", duration: 5 });
    expect(res.status).toBe(200);
    expect(res.body.estimated_time).toBe(360);
    const video = await waitForVideo(client, res.body.video_id);
    expect(video.status).toBe("completed");
    expect(isMp4(await download(client, video.video_url))).toBe(true);
    const task = [...runway.tasks.values()].find((t) => t.body.promptText === "clouds")!;
    expect(task.polls).toBeGreaterThanOrEqual(3);
    expect(task.body).toMatchObject({ model: "gen3a_turbo", duration: 5, ratio: "1280:768" });
    expect(await walletCoins(client)).toBe(1000);
    expect(await releases(id)).toBe(0);
  });

  it("a FAILED task marks the video failed with the reason and refunds exactly once", async () => {
    const { client, id } = await userWithCoins(baseUrl, 2000);
    runway.outcomes.push("fail");
    const res = await client.post("/videos/ai-store-generator.php", { prompt: "flagged", duration: 5 });
    expect(res.body.remaining_coins).toBe(1000);
    const video = await waitForVideo(client, res.body.video_id);
    expect(video).toMatchObject({ status: "failed", error: "The prompt was flagged by moderation", video_url: null });
    // The worker marks the video failed only after the refund was written: nothing more is to come.
    expect(await walletCoins(client)).toBe(2000);
    expect(await releases(id)).toBe(1);
  });

  it("transient poll errors (500, 429) are waited out; a refused submit (400) fails at once with a refund", async () => {
    const { client, id } = await userWithCoins(baseUrl, 5000);
    runway.failNext(/tasks/u, { kind: "status", status: 500 });
    runway.failNext(/tasks/u, { kind: "status", status: 429, headers: { "retry-after": "1" } });
    const ok = await client.post("/videos/ai-store-generator.php", { prompt: "bumpy", duration: 5 });
    const video = await waitForVideo(client, ok.body.video_id);
    expect(video.status).toBe("completed");
    expect(await walletCoins(client)).toBe(4000);

    runway.failNext(/text_to_video/u, { kind: "status", status: 400, body: { error: "promptText is too long" } });
    const refused = await client.post("/videos/ai-store-generator.php", { prompt: "refused", duration: 5 });
    expect(refused.status).toBe(200);
    const failed = await waitForVideo(client, refused.body.video_id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toContain("promptText is too long");
    expect(await walletCoins(client)).toBe(4000);
    expect(await releases(id)).toBe(1);
  });
});
