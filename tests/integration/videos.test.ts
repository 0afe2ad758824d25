/** SPEC §7 videos/*: over real HTTP against the whole stack (offline video provider, real MP4s). */
import { describe, expect, inject, it } from "vitest";
import { Client, giveCoins, newUser, walletCoins } from "../support/client";
import { connectSocket } from "../support/realtime";
import { isMp4, mp4Info } from "../peers/media";

async function download(client: Client, url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(`${client.baseUrl}${url}`, { headers: { cookie: client.cookieHeader() } });
  return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Polls check-status.php like the screen does (faster), until the video leaves "processing". */
async function waitForVideo(client: Client, id: string, timeoutMs = 30_000): Promise<{ video: any; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/videos/check-status.php?id=${id}`);
    expect(res.status).toBe(200);
    seen.push(res.body.video.status);
    if (res.body.video.status !== "processing") return { video: res.body.video, seen };
    if (Date.now() > deadline) throw new Error(`video ${id} still processing`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("videos/generate.php and ai-store-generator.php", () => {
  it("answers at once, charges the model price, and the worker makes a real MP4 of the duration", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 5000);
    const { socket, received: events } = await connectSocket(inject("baseUrl"), client);
    try {
      const started = Date.now();
      const res = await client.post("/videos/generate.php", { prompt: "waves on a beach", duration: 5, userId: id });
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5000);
      // gen3a_turbo $0.20/s: 200 units of $0.001 per second × 5 s × 1 coin per unit.
      expect(res.body).toMatchObject({
        success: true,
        video_id: expect.stringMatching(/^[a-f0-9]{24}$/u),
        estimated_time: expect.any(Number),
        cost_deducted: 1000,
        remaining_coins: 4000,
      });
      expect(await walletCoins(client)).toBe(4000);

      const first = await client.get(`/videos/check-status.php?id=${res.body.video_id}`);
      expect(first.body.video).toMatchObject({
        id: res.body.video_id,
        prompt: "waves on a beach",
        duration: 5,
        coins_used: 1000,
      });
      expect(["processing", "completed"]).toContain(first.body.video.status);

      const { video } = await waitForVideo(client, res.body.video_id);
      expect(video).toMatchObject({
        status: "completed",
        video_url: expect.stringMatching(/^\/api\/media\/videos\/.+\.mp4$/u),
        error: null,
      });
      expect(video.videoUrl).toBe(video.video_url);
      expect(new Date(video.created_at).getTime()).toBeGreaterThan(started - 60_000);

      const file = await download(client, video.video_url);
      expect(file.status).toBe(200);
      expect(file.type).toBe("video/mp4");
      expect(isMp4(file.bytes)).toBe(true);
      const info = mp4Info(file.bytes);
      expect(info.codec).toBe("h264");
      expect(info.durationSeconds).toBeCloseTo(5, 0);
      // Browsers seek with byte ranges.
      const part = await fetch(`${client.baseUrl}${video.video_url}`, {
        headers: { cookie: client.cookieHeader(), range: "bytes=0-7" },
      });
      expect(part.status).toBe(206);
      expect(part.headers.get("content-range")).toBe(`bytes 0-7/${file.bytes.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(file.bytes.subarray(0, 8))).toBe(true);
      // Settled, not refunded.
      expect(await walletCoins(client)).toBe(4000);

      // Pushed: processing at once, then completed with the URL.
      const deadline = Date.now() + 5000;
      while (!events.some((e) => e.event === "video:status" && e.payload.status === "completed") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const statuses = events.filter((e) => e.event === "video:status" && e.payload.videoId === res.body.video_id);
      expect(statuses.map((e) => e.payload.status)).toEqual(["processing", "completed"]);
      expect(statuses[1]!.payload.videoUrl).toBe(video.video_url);

      // Someone else's video does not exist for them, nor does its file.
      const stranger = await newUser();
      expect((await stranger.client.get(`/videos/check-status.php?id=${res.body.video_id}`)).status).toBe(404);
      expect((await download(stranger.client, video.video_url)).status).toBe(404);
    } finally {
      socket.close();
    }
  });

  it("the screen's call takes prompt and duration (and an optional model) and prices per model and second", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 5000);
    const res = await client.post("/videos/ai-store-generator.php", { prompt: "a city at night", duration: 7, model: "gen2" });
    expect(res.status).toBe(200);
    expect(res.body.cost_deducted).toBe(7 * 150);
    expect(res.body.remaining_coins).toBe(5000 - 1050);
    const { video } = await waitForVideo(client, res.body.video_id);
    expect(video.status).toBe("completed");
    expect(mp4Info((await download(client, video.video_url)).bytes).durationSeconds).toBeCloseTo(7, 0);
    const square = await client.post("/videos/ai-store-generator.php", { prompt: "square", duration: "12", aspectRatio: "1:1" });
    expect(square.status).toBe(200);
    expect(square.body.cost_deducted).toBe(12 * 200);
    const made = await waitForVideo(client, square.body.video_id);
    const info = mp4Info((await download(client, made.video.video_url)).bytes);
    expect([info.width, info.height]).toEqual([240, 240]);
    expect(info.durationSeconds).toBeCloseTo(12, 0);
  });

  it("refuses bad input with 400 naming the field, and charges nothing", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 5000);
    for (const duration of [4, 13, "abc", 5.5]) {
      const res = await client.post("/videos/generate.php", { prompt: "x", duration, userId: id });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, field: "duration" });
    }
    const noPrompt = await client.post("/videos/ai-store-generator.php", { duration: 5 });
    expect(noPrompt.status).toBe(400);
    expect(noPrompt.body.error).toContain("Please enter a prompt");
    const badModel = await client.post("/videos/ai-store-generator.php", { prompt: "x", model: "sora" });
    expect(badModel.body.field).toBe("model");
    expect((await client.post("/videos/generate.php", { prompt: "x", userId: "000000000000000000000000" })).status).toBe(403);
    expect((await new Client().post("/videos/ai-store-generator.php", { prompt: "x" })).status).toBe(401);
    expect(await walletCoins(client)).toBe(5000);
    expect((await client.get("/videos/get-history.php")).body.videos).toEqual([]);
  });

  it("402 when the wallet is short, and no video is recorded", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 999);
    const res = await client.post("/videos/generate.php", { prompt: "x", duration: 5, userId: id });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ error: "Insufficient coins", needed: 1000, available: 999 });
    expect(await walletCoins(client)).toBe(999);
    expect((await client.get(`/videos/history.php?userId=${id}`)).body.videos).toEqual([]);
  });

  it("a retried request with the same Idempotency-Key starts one video and charges once", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 5000);
    const headers = { "Idempotency-Key": `video-retry-${Date.now()}` };
    const a = await client.post("/videos/generate.php", { prompt: "once", duration: 5, userId: id }, headers);
    const b = await client.post("/videos/generate.php", { prompt: "once", duration: 5, userId: id }, headers);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.video_id).toBe(a.body.video_id);
    expect(await walletCoins(client)).toBe(4000);
    expect((await client.get("/videos/get-history.php")).body.videos).toHaveLength(1);
    // Two at the same time (a double click, a proxy retry): still one video.
    const raced = { "Idempotency-Key": `video-race-${Date.now()}` };
    const [c, d] = await Promise.all([
      client.post("/videos/generate.php", { prompt: "raced", duration: 5 }, raced),
      client.post("/videos/generate.php", { prompt: "raced", duration: 5 }, raced),
    ]);
    expect([c.status, d.status]).toEqual([200, 200]);
    expect(d.body.video_id).toBe(c.body.video_id);
    expect(await walletCoins(client)).toBe(3000);
    expect((await client.get("/videos/get-history.php")).body.videos).toHaveLength(2);
  });
});

describe("videos/check-status.php and the history calls", () => {
  it("check-status needs an id and finds only the owner's videos", async () => {
    const { client } = await newUser();
    const missing = await client.get("/videos/check-status.php");
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe("id");
    expect((await client.get("/videos/check-status.php?id=not-an-id")).status).toBe(404);
    expect((await client.get("/videos/check-status.php?id=0123456789abcdef01234567")).status).toBe(404);
  });

  it("both history paths answer {success, videos} newest first with the card fields", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 10_000);
    const first = (await client.post("/videos/ai-store-generator.php", { prompt: "first", duration: 5 })).body.video_id;
    const second = (await client.post("/videos/ai-store-generator.php", { prompt: "second", duration: 6 })).body.video_id;
    await waitForVideo(client, first);
    await waitForVideo(client, second);
    const helper = await client.get(`/videos/history.php?userId=${id}`);
    const screen = await client.get("/videos/get-history.php");
    expect(helper.status).toBe(200);
    expect(screen.body).toEqual(helper.body);
    expect(helper.body.success).toBe(true);
    expect(helper.body.videos.map((v: { id: string }) => v.id)).toEqual([second, first]);
    expect(helper.body.videos[0]).toMatchObject({
      id: second,
      status: "completed",
      prompt: "second",
      duration: 6,
      coins_used: 1200,
      created_at: expect.any(String),
      video_url: expect.stringContaining(".mp4"),
    });
    const stranger = await newUser();
    expect((await stranger.client.get(`/videos/history.php?userId=${id}`)).status).toBe(403);
    expect((await stranger.client.get("/videos/get-history.php")).body.videos).toEqual([]);
  });
});
