import path from "node:path";
import type { Config } from "@storefront/shared/server";
import { ProviderError } from "../errors";
import { offlineVideoProvider } from "./offline";
import { runwayVideoProvider } from "./runway";
import type { VideoProvider } from "./types";

export type { VideoProvider, VideoStatus } from "./types";
export { offlineVideoProvider } from "./offline";
export { runwayVideoProvider } from "./runway";

/** VIDEO_PROVIDER: "offline" (default: real MP4s from the bundled ffmpeg) or "runway" (a Runway-style API). */
export function createVideoProvider(config: Config): VideoProvider {
  switch (config.VIDEO_PROVIDER) {
    case "offline":
      return offlineVideoProvider({ workDir: path.join(config.dataDir, "work", "offline-video") });
    case "runway":
      if (!config.VIDEO_API_BASE_URL) {
        throw new ProviderError("VIDEO_PROVIDER=runway needs VIDEO_API_BASE_URL", { retryable: false });
      }
      return runwayVideoProvider({
        baseUrl: config.VIDEO_API_BASE_URL,
        version: config.VIDEO_API_VERSION,
        timeoutMs: config.AI_TIMEOUT_MS,
        ...(config.VIDEO_API_KEY ? { apiKey: config.VIDEO_API_KEY } : {}),
      });
  }
}
