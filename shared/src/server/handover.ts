/**
 * Connections handed to an API process by `npm start`'s front (scripts/lib/front.ts), which keeps
 * one public port for several API processes: it accepts each connection without reading it and
 * sends the socket itself over the process's IPC channel.
 */
import type { Server } from "node:http";
import { Socket } from "node:net";

/** The message that comes with a handed-over connection. */
export const HANDED_CONNECTION = "front:connection";

/** Serves every connection the front hands this process as if `server` had accepted it. */
export function serveHandedConnections(server: Server): void {
  process.on("message", (message: unknown, handle: unknown) => {
    if ((message as { type?: unknown } | null)?.type !== HANDED_CONNECTION || !(handle instanceof Socket)) return;
    server.emit("connection", handle);
    handle.resume();
  });
}
