/** What the Video form chooses (model, prompt, resolution, aspect ratio, duration) and its starting values. */
import { DEFAULT_VIDEO_MODEL, LIMITS, type VideoModelId } from "@storefront/shared";

export const RESOLUTIONS = ["720p", "1080p"] as const;
export const ASPECT_RATIOS = ["16:9", "9:16", "1:1"] as const;

/** What the form sends to generate. */
export interface VideoChoice {
  model: VideoModelId;
  prompt: string;
  resolution: (typeof RESOLUTIONS)[number];
  aspectRatio: (typeof ASPECT_RATIOS)[number];
  duration: number;
}

export const DEFAULT_CHOICE: VideoChoice = {
  model: DEFAULT_VIDEO_MODEL,
  prompt: "",
  resolution: "1080p",
  aspectRatio: "16:9",
  duration: LIMITS.videoDefaultSeconds,
};
