/** Video providers: the Runway-style client against a local peer, and the offline ffmpeg maker. */
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROCESS_ID } from "@storefront/shared/server";
import {
  offlineVideoProvider,
  runwayVideoProvider,
  type VideoProvider,
  type VideoStatus,
} from "../../workers/src/providers/index";
import { isMp4, mp4Info } from "../peers/media";
import { RunwayPeer } from "../peers/runway";
import { endedProcessId } from "../support/processes";
import { providerRejection } from "../support/providers";
import { until } from "../support/realtime";

/**
 * Polls like the worker does (the worker uses delayed jobs; a test may simply wait). Bounded by time,
 * not by a count of polls: ffmpeg's few seconds of video take several times longer in a loaded run.
 */
async function pollUntilDone(
  provider: VideoProvider,
  taskId: string,
  timeoutMs = 60_000,
): Promise<{ final: VideoStatus; states: string[] }> {
  const states: string[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await provider.status(taskId);
    states.push(status.state);
    if (status.state !== "processing") return { final: status, states };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("video never finished");
}

/**
 * Waits for a maker whose ffmpeg is missing to write its error, the last file it writes: only then
 * may a test undo what it wrote (a fixed wait let a slow maker write its error, or its start, after
 * the test had removed or aged them).
 */
const deadMakerDone = (dir: string, taskId: string) =>
  until(() => existsSync(path.join(dir, `${taskId}.error`)), 15_000, `the error of ${taskId}'s dead maker`);

describe("Runway-style video provider", () => {
  const peer = new RunwayPeer("key_runway");
  let provider: VideoProvider;

  beforeAll(async () => {
    const url = await peer.start();
    provider = runwayVideoProvider({ baseUrl: url, apiKey: "key_runway", version: "2024-11-06", timeoutMs: 1500 });
  });
  afterAll(() => peer.stop());

  it("submits text_to_video, polls PENDING → RUNNING → SUCCEEDED and downloads the MP4", async () => {
    const { taskId } = await provider.submit({ prompt: "waves at sunset", seconds: 5, model: "gen3a_turbo", ratio: "16:9" });
    const create = peer.requestsTo(/text_to_video/u).at(-1)!;
    expect(create.headers.authorization).toBe("Bearer key_runway");
    expect(create.headers["x-runway-version"]).toBe("2024-11-06");
    expect(JSON.parse(create.body.toString())).toEqual({
      model: "gen3a_turbo",
      promptText: "waves at sunset",
      duration: 5,
      ratio: "1280:768",
    });
    const { final, states } = await pollUntilDone(provider, taskId);
    expect(states).toEqual(["processing", "processing", "completed"]);
    expect(final.url).toMatch(/\/files\/.+\.mp4$/u);
    expect(isMp4(final.file!)).toBe(true);
    expect(peer.requestsTo(/tasks/u).every((r) => r.headers["x-runway-version"] === "2024-11-06")).toBe(true);
  });

  it("uses image_to_video when a start frame is given", async () => {
    await provider.submit({ prompt: "p", seconds: 5, model: "gen3a", ratio: "9:16", image: "https://example.test/a.png" });
    const body = JSON.parse(
      peer
        .requestsTo(/image_to_video/u)
        .at(-1)!
        .body.toString(),
    );
    expect(body).toMatchObject({ promptImage: "https://example.test/a.png", ratio: "768:1280" });
  });

  it("a FAILED task is a failed status with the provider's reason", async () => {
    peer.outcomes.push("fail");
    const { taskId } = await provider.submit({ prompt: "p", seconds: 5, model: "gen2", ratio: "1:1" });
    const { final } = await pollUntilDone(provider, taskId);
    expect(final).toEqual({ state: "failed", error: "The prompt was flagged by moderation" });
  });

  it("429 with Retry-After and 5xx are retryable; a missing version header or key is permanent", async () => {
    peer.failNext(/text_to_video/u, {
      kind: "status",
      status: 429,
      headers: { "retry-after": "2" },
      body: { error: "Too many requests" },
    });
    expect(await providerRejection(provider.submit({ prompt: "p", seconds: 5, model: "gen2", ratio: "16:9" }))).toMatchObject({
      retryable: true,
      status: 429,
      retryAfterMs: 2000,
    });
    peer.failNext(/tasks/u, { kind: "status", status: 500 });
    expect(await providerRejection(provider.status("any"))).toMatchObject({ retryable: true, status: 500 });
    const oldVersion = runwayVideoProvider({ baseUrl: peer.url, apiKey: "key_runway", version: "2020-01-01", timeoutMs: 1500 });
    const error = await providerRejection(oldVersion.submit({ prompt: "p", seconds: 5, model: "gen2", ratio: "16:9" }));
    expect(error).toMatchObject({ retryable: false, status: 400 });
    expect(error.message).toContain("X-Runway-Version");
  });

  it("a task poll that hangs times out as retryable", async () => {
    peer.failNext(/tasks/u, { kind: "hang" });
    expect((await providerRejection(provider.status("any"))).retryable).toBe(true);
  });

  it("malformed replies are permanent: no id, an unknown status, or output that is not a video", async () => {
    peer.failNext(/text_to_video/u, { kind: "malformed", body: JSON.stringify({ uuid: "x" }) });
    expect((await providerRejection(provider.submit({ prompt: "p", seconds: 5, model: "gen2", ratio: "16:9" }))).retryable).toBe(
      false,
    );
    peer.failNext(/tasks/u, { kind: "malformed", body: JSON.stringify({ status: "DANCING" }) });
    expect((await providerRejection(provider.status("any"))).retryable).toBe(false);
    peer.pollsBeforeDone = 0;
    const { taskId } = await provider.submit({ prompt: "p", seconds: 5, model: "gen2", ratio: "16:9" });
    peer.failNext(/files/u, { kind: "malformed", body: "<html>expired</html>", contentType: "text/html" });
    const error = await providerRejection(provider.status(taskId));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/not an MP4/u);
    peer.pollsBeforeDone = 2;
  });
});

describe("offline video provider", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "offline-video-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("makes a real H.264 MP4 of the requested length in the background: processing, then completed", async () => {
    const provider = offlineVideoProvider({ workDir: dir });
    const { taskId } = await provider.submit({ prompt: "a cat playing piano", seconds: 7, model: "gen3a_turbo", ratio: "9:16" });
    const first = await provider.status(taskId);
    expect(first.state).toBe("processing");
    const { final } = await pollUntilDone(provider, taskId);
    expect(final.state).toBe("completed");
    expect(isMp4(final.file!)).toBe(true);
    const info = mp4Info(final.file!);
    expect(info.codec).toBe("h264");
    expect([info.width, info.height]).toEqual([180, 320]);
    expect(info.durationSeconds).toBeCloseTo(7, 0);
  });

  it("another process (a new provider on the same directory) answers the poll", async () => {
    const maker = offlineVideoProvider({ workDir: dir });
    const { taskId } = await maker.submit({ prompt: "shared", seconds: 5, model: "gen2", ratio: "1:1" });
    const other = offlineVideoProvider({ workDir: dir });
    const { final } = await pollUntilDone(other, taskId);
    const info = mp4Info(final.file!);
    expect(info.durationSeconds).toBeCloseTo(5, 0);
    expect([info.width, info.height]).toEqual([240, 240]);
  });

  it("a task whose maker died (no file, stale start) is made again by whoever polls it", async () => {
    const dead = offlineVideoProvider({ workDir: dir, ffmpegPath: "/nonexistent/ffmpeg-that-hangs" });
    const { taskId } = await dead.submit({ prompt: "orphan", seconds: 5, model: "gen2", ratio: "16:9" });
    // Simulate the maker's process dying before it wrote anything: no error file, an old start.
    await deadMakerDone(dir, taskId);
    rmSync(path.join(dir, `${taskId}.error`), { force: true });
    utimesSync(path.join(dir, `${taskId}.started`), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    const survivor = offlineVideoProvider({ workDir: dir });
    const { final, states } = await pollUntilDone(survivor, taskId);
    expect(states[0]).toBe("processing");
    expect(final.state).toBe("completed");
    expect(isMp4(final.file!)).toBe(true);
  });

  it("a task whose maker's process is gone (a worker killed mid-make) is made again at once, not after a minute", async () => {
    const dead = offlineVideoProvider({ workDir: dir, ffmpegPath: "/nonexistent/ffmpeg-that-hangs" });
    const { taskId } = await dead.submit({ prompt: "killed maker", seconds: 5, model: "gen2", ratio: "1:1" });
    await deadMakerDone(dir, taskId);
    rmSync(path.join(dir, `${taskId}.error`), { force: true });
    // A fresh start by a process of this machine that has been killed since.
    writeFileSync(path.join(dir, `${taskId}.started`), await endedProcessId());
    const survivor = offlineVideoProvider({ workDir: dir });
    const { final } = await pollUntilDone(survivor, taskId);
    expect(final.state).toBe("completed");
    // A live maker (this process) is left to finish: the task stays processing.
    const { taskId: busy } = await dead.submit({ prompt: "live maker", seconds: 5, model: "gen2", ratio: "1:1" });
    await deadMakerDone(dir, busy);
    rmSync(path.join(dir, `${busy}.error`), { force: true });
    writeFileSync(path.join(dir, `${busy}.started`), PROCESS_ID);
    expect((await offlineVideoProvider({ workDir: dir }).status(busy)).state).toBe("processing");
  });

  it("a broken ffmpeg gives a failed status; an unknown task id is a permanent error", async () => {
    const broken = offlineVideoProvider({ workDir: dir, ffmpegPath: "/bin/false" });
    const { taskId } = await broken.submit({ prompt: "p", seconds: 5, model: "gen2", ratio: "16:9" });
    const { final } = await pollUntilDone(broken, taskId);
    expect(final.state).toBe("failed");
    expect(final.error).toMatch(/Video generation failed/u);
    expect((await providerRejection(broken.status("not-a-task"))).retryable).toBe(false);
  });
});
