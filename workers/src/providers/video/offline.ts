/**
 * The built-in offline video provider (DESIGN §5): a real H.264 MP4 of the requested length,
 * made by the bundled ffmpeg from a test pattern tinted by a hash of the prompt with the prompt
 * written over it. Generation runs in the background; its state lives in files under `workDir`,
 * so any worker process can answer a status poll and a task whose maker died is made again.
 */
import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import { z } from "zod";
import { VIDEO_MODEL_IDS, VIDEO_RATIOS, type VideoRatio } from "@storefront/shared";
import { PROCESS_ID, processGone } from "@storefront/shared/server";
import { ProviderError } from "../errors";
import { wrapText } from "../image/offline";
import type { VideoProvider, VideoStatus, VideoSubmitRequest } from "./types";

const FFMPEG_PATH: string = ffmpegInstaller.path;

const FONT_CANDIDATES = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  "/usr/share/fonts/dejavu/DejaVuSans.ttf",
  "/usr/share/fonts/TTF/DejaVuSans.ttf",
  "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
  "/System/Library/Fonts/Supplemental/Arial.ttf",
  "/Library/Fonts/Arial.ttf",
];

/** Small frames keep generation well under a second per video on a shared machine. */
const FRAME: Record<VideoRatio, { width: number; height: number }> = {
  "16:9": { width: 320, height: 180 },
  "9:16": { width: 180, height: 320 },
  "1:1": { width: 240, height: 240 },
};
const FPS = 10;
/**
 * A task with no finished file this long after a maker started is presumed orphaned. A maker on this
 * machine whose process has ended is known dead at once (its `.started` file holds its `PROCESS_ID`).
 */
const STALE_MS = 60_000;
const KEEP_MS = 24 * 3600_000;

const taskSchema = z.object({
  prompt: z.string(),
  seconds: z.number().int().min(1).max(60),
  model: z.enum(VIDEO_MODEL_IDS),
  ratio: z.enum(VIDEO_RATIOS),
});

/** Only plain paths go into an ffmpeg filter argument, so no escaping rules are needed. */
const FILTER_SAFE_PATH = /^[A-Za-z0-9/._-]+$/u;

function findFont(): string | undefined {
  return FONT_CANDIDATES.find((f) => existsSync(f) && FILTER_SAFE_PATH.test(f));
}

export interface OfflineVideoOptions {
  /** Where task files live; shared by every worker process on the machine. */
  workDir: string;
  ffmpegPath?: string;
}

function ffmpegArgs(task: z.infer<typeof taskSchema>, out: string, textFile: string | undefined): string[] {
  const { width, height } = FRAME[task.ratio];
  const hue = createHash("sha256").update(task.prompt).digest()[0]! * (360 / 256);
  const filters = [`hue=h=${hue.toFixed(1)}`];
  const font = findFont();
  if (font && textFile && FILTER_SAFE_PATH.test(textFile)) {
    filters.push(
      `drawtext=fontfile=${font}:textfile=${textFile}:expansion=none:fontcolor=white:fontsize=13:line_spacing=3` +
        ":box=1:boxcolor=black@0.55:boxborderw=4:x=(w-text_w)/2:y=h-text_h-12",
    );
  }
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${width}x${height}:rate=${FPS}:duration=${task.seconds}`,
    "-vf",
    filters.join(","),
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-movflags",
    "+faststart",
    "-f",
    "mp4",
    out,
  ];
}

function run(ffmpeg: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`))));
  });
}

export function offlineVideoProvider(options: OfflineVideoOptions): VideoProvider {
  const dir = options.workDir;
  const ffmpeg = options.ffmpegPath ?? FFMPEG_PATH;
  const running = new Map<string, Promise<void>>();
  const file = (taskId: string, suffix: string) => path.join(dir, `${taskId}${suffix}`);

  async function make(taskId: string): Promise<void> {
    const task = taskSchema.parse(JSON.parse(await readFile(file(taskId, ".json"), "utf8")));
    // Who makes it, so that a poll can tell when its maker has ended.
    await writeFile(file(taskId, ".started"), PROCESS_ID);
    // Unique per maker: two makers of one task (a takeover race) never write the same file.
    const maker = `${process.pid}-${randomUUID().slice(0, 8)}`;
    const part = file(taskId, `.part-${maker}.mp4`);
    const textFile = file(taskId, `.text-${maker}.txt`);
    const { width } = FRAME[task.ratio];
    await writeFile(textFile, wrapText(task.prompt, Math.floor(width / 8), 3).join("\n"));
    try {
      await run(ffmpeg, ffmpegArgs(task, part, textFile));
      await rename(part, file(taskId, ".mp4"));
    } catch (error) {
      await writeFile(file(taskId, ".error"), error instanceof Error ? error.message : String(error));
      await rm(part, { force: true });
    } finally {
      await rm(textFile, { force: true });
    }
  }

  function start(taskId: string): void {
    if (running.has(taskId)) return;
    const job = make(taskId)
      .catch(() => undefined)
      .finally(() => running.delete(taskId));
    running.set(taskId, job);
  }

  async function sweepOld(): Promise<void> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const now = Date.now();
    await Promise.all(
      names.map(async (name) => {
        const info = await stat(path.join(dir, name)).catch(() => null);
        if (info && now - info.mtimeMs > KEEP_MS) await rm(path.join(dir, name), { force: true });
      }),
    );
  }

  return {
    name: "offline",
    pollIntervalMs: 1000,
    async submit(req: VideoSubmitRequest) {
      await mkdir(dir, { recursive: true });
      void sweepOld();
      const taskId = `offline-${randomUUID()}`;
      const task: z.infer<typeof taskSchema> = { prompt: req.prompt, seconds: req.seconds, model: req.model, ratio: req.ratio };
      await writeFile(file(taskId, ".json"), JSON.stringify(task));
      await writeFile(file(taskId, ".started"), PROCESS_ID);
      start(taskId);
      return { taskId };
    },
    async status(taskId: string): Promise<VideoStatus> {
      if (!/^offline-[0-9a-f-]{36}$/u.test(taskId)) {
        throw new ProviderError(`unknown offline video task ${taskId}`, { retryable: false });
      }
      const done = await readFile(file(taskId, ".mp4")).catch(() => null);
      if (done) return { state: "completed", file: done };
      const failed = await readFile(file(taskId, ".error"), "utf8").catch(() => null);
      if (failed !== null) return { state: "failed", error: `Video generation failed: ${failed.slice(0, 200)}` };
      if (running.has(taskId)) return { state: "processing" };
      if (!existsSync(file(taskId, ".json"))) return { state: "failed", error: "Video generation failed: task not found" };
      const started = await stat(file(taskId, ".started")).catch(() => null);
      // Another process may be making it; take over only when that maker is gone or looks dead.
      const stale = !started || Date.now() - started.mtimeMs > STALE_MS;
      if (stale || processGone((await readFile(file(taskId, ".started"), "utf8").catch(() => "")).trim())) start(taskId);
      return { state: "processing" };
    },
  };
}
