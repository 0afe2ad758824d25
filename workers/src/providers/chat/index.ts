import type { Config } from "@storefront/shared/server";
import { offlineChatProvider } from "./offline";
import type { ChatProvider } from "./types";

export type { ChatProvider, ChatRequest, ChatTurn } from "./types";
export { offlineChatProvider } from "./offline";

/** The chat provider AI_PROVIDER names: "offline" (default, no network) or "openai" (any compatible API). */
export function createChatProvider(config: Config): ChatProvider {
  switch (config.AI_PROVIDER) {
    case "offline":
      return offlineChatProvider();
    case "openai":
      // Filled in with the OpenAI-compatible client; until then fail loudly rather than fall back silently.
      throw new Error("AI_PROVIDER=openai is not built yet");
  }
}
