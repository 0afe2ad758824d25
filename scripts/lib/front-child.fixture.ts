/**
 * An API process as the front sees it (front.test.ts): serves the connections it is handed, answering
 * its pid. Told "block", it keeps its event loop busy for a while (then exits if told so); told
 * "stop", it refuses the connections handed to it from then on, as a stopping API process does; told
 * "mute", it drops them unanswered (as Node does with a socket a process out of file descriptors
 * cannot take), until "unmute".
 */
import { createServer } from "node:http";
import { serveHandedConnections } from "../../shared/src/server/handover";

const server = createServer((_req, res) => {
  res.setHeader("Connection", "close");
  res.end(String(process.pid));
});
const handover = serveHandedConnections(server);
const takeHandovers = process.listeners("message").at(-1)!;
const dropHandovers = (_message: unknown, handle: unknown) => (handle as { destroy?: () => void } | undefined)?.destroy?.();

process.on("message", (message: { type?: string; ms?: number; exit?: boolean }) => {
  if (message.type === "stop") handover.stop();
  if (message.type === "mute") process.off("message", takeHandovers).on("message", dropHandovers);
  if (message.type === "unmute") process.off("message", dropHandovers).on("message", takeHandovers);
  if (message.type !== "block") return;
  // Blocks after this turn, so the "blocking" answer leaves first.
  setImmediate(() => {
    const until = Date.now() + (message.ms ?? 0);
    while (Date.now() < until);
    if (message.exit) process.exit(1);
  });
  process.send?.({ type: "blocking" });
});
process.send?.({ type: "ready" });
