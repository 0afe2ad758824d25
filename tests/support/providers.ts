/** Helpers for the provider suites (their calls run against local wire-format peers). */
import { ProviderError, type ChatProvider, type ChatRequest } from "../../workers/src/providers/index";

/** The ProviderError a call ends with; any other outcome (success or another error) fails the test. */
export async function providerRejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error("expected a ProviderError");
}

/** Every chunk of a stream, in order. */
export async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

/**
 * A slow chat model: yields `pieces`, then writes nothing more until the caller's deadline cuts it
 * off (the abort is the only clock, no timer of the test's), and throws what the cut-off call throws.
 */
export function cutAtDeadline(pieces: string[], onAsked: (req: ChatRequest) => void = () => undefined): ChatProvider {
  return {
    name: "scripted",
    async *stream(req, signal) {
      onAsked(req);
      yield* pieces;
      if (!signal) throw new Error("cutAtDeadline needs the caller's deadline signal");
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      throw signal.reason;
    },
  };
}
