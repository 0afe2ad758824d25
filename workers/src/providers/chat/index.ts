import type { Config } from "@storefront/shared/server";
import { offlineChatProvider } from "./offline";
import { openAiChatProvider } from "./openai";
import type { ChatProvider } from "./types";

export type { ChatProvider, ChatRequest } from "./types";
export { openAiChatProvider } from "./openai";

/** The chat provider AI_PROVIDER names: "offline" (default, no network) or "openai" (any compatible API). */
export function createChatProvider(config: Config): ChatProvider {
  switch (config.AI_PROVIDER) {
    case "offline":
      return offlineChatProvider();
    case "openai":
      return openAiChatProvider({
        baseUrl: config.OPENAI_BASE_URL,
        model: config.OPENAI_CHAT_MODEL,
        timeoutMs: config.AI_TIMEOUT_MS,
        ...(config.OPENAI_API_KEY ? { apiKey: config.OPENAI_API_KEY } : {}),
      });
  }
}
