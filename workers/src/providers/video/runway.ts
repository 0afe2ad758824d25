/**
 * A Runway-style video API: POST {base}/v1/text_to_video or /v1/image_to_video → { id };
 * GET {base}/v1/tasks/{id} → { status: PENDING|THROTTLED|RUNNING|SUCCEEDED|FAILED|CANCELLED,
 * output: [url] }. Bearer key and the X-Runway-Version header on every call. The finished file
 * is downloaded at once because the provider's output URLs expire.
 */
import { VIDEO_TIMING, type VideoRatio } from "@storefront/shared";
import { z } from "zod";
import { joinUrl, malformed, providerFetch, readBytes, readJson, type ProviderCallOptions } from "../http";
import type { VideoProvider, VideoStatus, VideoSubmitRequest } from "./types";

export interface RunwayOptions {
  baseUrl: string;
  apiKey?: string;
  version: string;
  timeoutMs: number;
}

/** Runway's ratio strings by SPEC aspect ratio (gen3a models have no square: they get 16:9). */
function runwayRatio(model: string, ratio: VideoRatio): string {
  if (model.startsWith("gen3a")) return ratio === "9:16" ? "768:1280" : "1280:768";
  return { "16:9": "1280:720", "9:16": "720:1280", "1:1": "960:960" }[ratio];
}

const createdSchema = z.object({ id: z.string().min(1) });
const taskSchema = z.object({
  id: z.string().optional(),
  status: z.enum(["PENDING", "THROTTLED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"]),
  output: z.array(z.string()).nullish(),
  failure: z.string().nullish(),
  failureCode: z.string().nullish(),
});

export function runwayVideoProvider(options: RunwayOptions): VideoProvider {
  const headers = (): Record<string, string> => ({
    "x-runway-version": options.version,
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
  });
  const call = (signal?: AbortSignal): ProviderCallOptions => ({
    provider: "runway",
    timeoutMs: options.timeoutMs,
    ...(signal ? { signal } : {}),
  });

  return {
    name: "runway",
    pollIntervalMs: VIDEO_TIMING.pollIntervalMs,
    async submit(req: VideoSubmitRequest, signal?: AbortSignal) {
      const opts = call(signal);
      const path = req.image ? "v1/image_to_video" : "v1/text_to_video";
      const body = {
        model: req.model,
        promptText: req.prompt,
        duration: req.seconds,
        ratio: runwayRatio(req.model, req.ratio),
        ...(req.image ? { promptImage: req.image } : {}),
      };
      const response = await providerFetch(
        joinUrl(options.baseUrl, path),
        { method: "POST", headers: { ...headers(), "content-type": "application/json" }, body: JSON.stringify(body) },
        opts,
      );
      const parsed = createdSchema.safeParse(await readJson(response, opts));
      if (!parsed.success) throw malformed("runway", "no task id");
      return { taskId: parsed.data.id };
    },
    async status(taskId: string, signal?: AbortSignal): Promise<VideoStatus> {
      const opts = call(signal);
      const response = await providerFetch(
        joinUrl(options.baseUrl, `v1/tasks/${encodeURIComponent(taskId)}`),
        { method: "GET", headers: headers() },
        opts,
      );
      const parsed = taskSchema.safeParse(await readJson(response, opts));
      if (!parsed.success) throw malformed("runway", "task has no known status");
      const task = parsed.data;
      switch (task.status) {
        case "PENDING":
        case "THROTTLED":
        case "RUNNING":
          return { state: "processing" };
        case "FAILED":
        case "CANCELLED":
          return { state: "failed", error: task.failure ?? task.failureCode ?? `Video generation ${task.status.toLowerCase()}` };
        case "SUCCEEDED": {
          const url = task.output?.[0];
          if (!url) throw malformed("runway", "SUCCEEDED task without output");
          const file = await providerFetch(url, { method: "GET" }, opts);
          const bytes = await readBytes(file, opts);
          if (bytes.length < 12 || bytes.subarray(4, 8).toString("latin1") !== "ftyp") {
            throw malformed("runway", "output is not an MP4 file");
          }
          return { state: "completed", file: bytes, url };
        }
      }
    },
  };
}
