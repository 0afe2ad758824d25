/**
 * A local Runway-style video peer: POST /v1/text_to_video and /v1/image_to_video → { id };
 * GET /v1/tasks/{id} → PENDING, RUNNING, then SUCCEEDED with output [url of a real MP4 it
 * serves], or FAILED. Requires the X-Runway-Version header and the Bearer key.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ffmpeg from "@ffmpeg-installer/ffmpeg";
import { bearerOk, json, Peer, type RecordedRequest } from "./peer";

interface Task {
  id: string;
  polls: number;
  body: Record<string, unknown>;
  outcome: "succeed" | "fail";
}

/** A real 1-second MP4, made once per peer with the bundled ffmpeg. */
function tinyMp4(): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), "runway-peer-"));
  const out = path.join(dir, "v.mp4");
  execFileSync(ffmpeg.path, [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=64x36:rate=5:duration=1",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-f",
    "mp4",
    out,
  ]);
  const bytes = readFileSync(out);
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

export class RunwayPeer extends Peer {
  readonly tasks = new Map<string, Task>();
  /** Status polls a task answers with PENDING/RUNNING before its outcome. */
  pollsBeforeDone = 2;
  /** Outcome of the next created tasks (consumed one per task; default succeed). */
  readonly outcomes: Task["outcome"][] = [];
  private readonly video = tinyMp4();

  constructor(
    readonly apiKey: string,
    readonly version = "2024-11-06",
  ) {
    super([
      { method: "POST", path: /^\/v1\/(text|image)_to_video$/u, handle: (req, res) => this.create(req, res) },
      { method: "GET", path: /^\/v1\/tasks\/[^/]+$/u, handle: (req, res) => this.task(req, res) },
      {
        method: "GET",
        path: /^\/files\/[^/]+\.mp4$/u,
        handle: (_req, res) => {
          res.writeHead(200, { "content-type": "video/mp4", "content-length": String(this.video.length) });
          res.end(this.video);
        },
      },
    ]);
  }

  private refused(req: RecordedRequest, res: Parameters<typeof json>[0]): boolean {
    if (!bearerOk(req, this.apiKey)) {
      json(res, 401, { error: "Invalid API key" });
      return true;
    }
    if (req.headers["x-runway-version"] !== this.version) {
      json(res, 400, { error: "X-Runway-Version header is required" });
      return true;
    }
    return false;
  }

  private create(req: RecordedRequest, res: Parameters<typeof json>[0]): void {
    if (this.refused(req, res)) return;
    const body = JSON.parse(req.body.toString()) as Record<string, unknown>;
    if (typeof body.promptText !== "string" || !body.model || !body.ratio) {
      return json(res, 400, { error: "promptText, model and ratio are required" });
    }
    if (req.path.includes("image_to_video") && typeof body.promptImage !== "string") {
      return json(res, 400, { error: "promptImage is required" });
    }
    const id = randomUUID();
    this.tasks.set(id, { id, polls: 0, body, outcome: this.outcomes.shift() ?? "succeed" });
    json(res, 200, { id });
  }

  private task(req: RecordedRequest, res: Parameters<typeof json>[0]): void {
    if (this.refused(req, res)) return;
    const id = decodeURIComponent(req.path.split("/").pop()!);
    const task = this.tasks.get(id);
    if (!task) return json(res, 404, { error: "Task not found" });
    task.polls += 1;
    const base = { id, createdAt: new Date(0).toISOString() };
    if (task.polls <= this.pollsBeforeDone) {
      return json(res, 200, {
        ...base,
        status: task.polls === 1 ? "PENDING" : "RUNNING",
        progress: task.polls / (this.pollsBeforeDone + 1),
      });
    }
    if (task.outcome === "fail") {
      return json(res, 200, {
        ...base,
        status: "FAILED",
        failure: "The prompt was flagged by moderation",
        failureCode: "SAFETY.INPUT.TEXT",
      });
    }
    json(res, 200, { ...base, status: "SUCCEEDED", output: [`${this.url}/files/${id}.mp4`] });
  }
}
