/** Video models, their prices per second (SPEC §9) and the screen's polling timings. */

export const VIDEO_MODEL_IDS = ["gen3a_turbo", "gen3a", "gen2"] as const;

export type VideoModelId = (typeof VIDEO_MODEL_IDS)[number];

export interface VideoModel {
  id: VideoModelId;
  name: string;
  provider: string;
  /** US dollars per second of video, as SPEC §9 states. */
  costPerSecond: number;
  description: string;
}

export const VIDEO_MODELS: readonly VideoModel[] = [
  { id: "gen3a_turbo", name: "Gen-3 Alpha Turbo", provider: "Runway", costPerSecond: 0.2, description: "Fast, good quality" },
  { id: "gen3a", name: "Gen-3 Alpha", provider: "Runway", costPerSecond: 0.3, description: "Highest quality" },
  { id: "gen2", name: "Gen-2", provider: "Runway", costPerSecond: 0.15, description: "Economical" },
];

export const DEFAULT_VIDEO_MODEL: VideoModelId = "gen3a_turbo";

export const VIDEO_TIMING = {
  firstPollMs: 5000,
  pollIntervalMs: 5000,
  errorRetryMs: 10_000,
  defaultEstimatedSeconds: 360,
} as const;
