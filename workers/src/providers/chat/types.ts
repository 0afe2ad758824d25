import type { ChatTurn, Language, PersonaId } from "@storefront/shared";

export type { ChatTurn };

export interface ChatRequest {
  /** The persona's system prompt (SPEC §3), sent before the conversation. */
  system: string;
  /** Earlier turns, oldest first. */
  history: ChatTurn[];
  message: string;
  language: Language;
  persona: PersonaId;
  /** Most output tokens the model may write (sent as max_tokens); unbounded when absent. */
  maxTokens?: number;
}

/** A chat model that streams its answer as text deltas; throws ProviderError on failure. */
export interface ChatProvider {
  name: string;
  stream(req: ChatRequest, signal?: AbortSignal): AsyncIterable<string>;
}
