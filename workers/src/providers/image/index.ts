import type { Config } from "@storefront/shared/server";
import { offlineImageProvider } from "./offline";
import { openAiImageProvider } from "./openai";
import type { ImageProvider } from "./types";

export type { ImageProvider } from "./types";
export { offlineImageProvider } from "./offline";
export { openAiImageProvider } from "./openai";

/** IMAGE_PROVIDER (else AI_PROVIDER): "offline" (default) or "openai" (the OpenAI images API). */
export function createImageProvider(config: Config): ImageProvider {
  const which = config.IMAGE_PROVIDER ?? config.AI_PROVIDER;
  switch (which) {
    case "offline":
      return offlineImageProvider();
    case "openai":
      return openAiImageProvider({
        baseUrl: config.OPENAI_BASE_URL,
        model: config.OPENAI_IMAGE_MODEL,
        timeoutMs: config.AI_TIMEOUT_MS,
        ...(config.OPENAI_API_KEY ? { apiKey: config.OPENAI_API_KEY } : {}),
      });
  }
}
