import type { VideoModelId, VideoRatio } from "@storefront/shared";

export interface VideoSubmitRequest {
  prompt: string;
  /** Length of the video, 5-12 s (SPEC §9). */
  seconds: number;
  model: VideoModelId;
  ratio: VideoRatio;
  /** A start frame (https URL or data URI): image-to-video instead of text-to-video. */
  image?: string;
}

export type VideoState = "processing" | "completed" | "failed";

export interface VideoStatus {
  state: VideoState;
  /** The finished MP4 (completed only). */
  file?: Buffer;
  /** Where the provider published it (completed, HTTP providers). */
  url?: string;
  /** Why it failed (failed only). */
  error?: string;
}

/** Video generation is asynchronous: submit, then poll status. Throws ProviderError. */
export interface VideoProvider {
  name: string;
  /** How long to wait between status polls unless VIDEO_POLL_INTERVAL_MS says otherwise. */
  pollIntervalMs: number;
  submit(req: VideoSubmitRequest, signal?: AbortSignal): Promise<{ taskId: string }>;
  status(taskId: string, signal?: AbortSignal): Promise<VideoStatus>;
}
