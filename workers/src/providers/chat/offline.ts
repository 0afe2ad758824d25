import { localReply } from "@storefront/shared/reply-engine";
import type { ChatProvider, ChatRequest } from "./types";

/** Splits a reply into word-sized deltas that concatenate back to the exact reply. */
export function wordChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/gu) ?? [];
}

/**
 * The built-in offline chat (DESIGN §5): the local reply engine, streamed word by word so
 * callers exercise the same delta path as a real model.
 */
export function offlineChatProvider(options: { now?: () => Date } = {}): ChatProvider {
  return {
    name: "offline",
    async *stream(req: ChatRequest, signal?: AbortSignal) {
      const now = options.now?.() ?? new Date();
      const reply = await localReply({
        message: req.message,
        language: req.language,
        persona: req.persona,
        history: req.history,
        now,
      });
      for (const chunk of wordChunks(reply)) {
        signal?.throwIfAborted();
        yield chunk;
      }
    },
  };
}
