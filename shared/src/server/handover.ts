/**
 * Connections handed to an API process by `npm start`'s front (scripts/lib/front.ts), which keeps
 * one public port for several API processes: it accepts each connection without reading it and
 * sends the socket itself over the process's IPC channel.
 */
import type { Server } from "node:http";
import { Socket } from "node:net";

/** The message that comes with a handed-over connection. */
export const HANDED_CONNECTION = "front:connection";
/** The answer to it: the connection was taken (the front closes its copy), or refused (it goes elsewhere). */
export const HANDOVER_ANSWER = "front:handover";

export interface Handover {
  /** From now on, every connection handed over is refused (a process that is stopping). */
  stop(): void;
}

/**
 * Serves every connection the front hands this process as if `server` had accepted it, and says so;
 * once stopped, refuses them, and the front hands them to another process.
 */
export function serveHandedConnections(server: Server): Handover {
  let serving = true;
  process.on("message", (message: unknown, handle: unknown) => {
    const { type, id } = (message ?? {}) as { type?: unknown; id?: unknown };
    if (type !== HANDED_CONNECTION || !(handle instanceof Socket)) return;
    process.send?.({ type: HANDOVER_ANSWER, id, taken: serving });
    if (!serving) {
      // The front still holds the connection: closing this copy leaves it open for the next process.
      handle.destroy();
      return;
    }
    server.emit("connection", handle);
    handle.resume();
  });
  return {
    stop: () => {
      serving = false;
    },
  };
}
