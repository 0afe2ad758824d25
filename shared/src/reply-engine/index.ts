/**
 * @storefront/shared/reply-engine: the built-in offline reply engine (SPEC §9, DESIGN §5), a
 * subpath of its own so the shared root does not carry it. The engine and its tables
 * (data/*.json: dictionary, cities, small talk, units) load with import() on the first local
 * reply: the API never loads them, and a web session that only uses the backend never
 * downloads them.
 */
import type { LocalReplyInput } from "./engine";

export type { ChatTurn, LocalReplyInput } from "./engine";

let engine: Promise<typeof import("./engine")> | undefined;

/** The engine's reply to one message (see engine.ts); loads the engine on first use. */
export async function localReply(input: LocalReplyInput): Promise<string> {
  engine ??= import("./engine").catch((error: unknown) => {
    // A failed download (a flaky network in the browser) is tried again on the next reply.
    engine = undefined;
    throw error;
  });
  return (await engine).localReply(input);
}
