/**
 * One public port for several API processes (`npm start` with API_PROCESSES above 1). The front
 * reads nothing: it accepts each TCP connection paused and hands the socket itself to an API process
 * over the process's IPC channel (as Node's cluster module does), which serves it as if it had
 * accepted it. A connection's bytes then never pass through this process again.
 *
 * A client stays on one process, picked by a hash of its address: Socket.IO's polling transport
 * (the fallback where WebSockets are blocked) sends each poll of a session as its own request,
 * possibly on a new connection, and only the process that made the session knows it. A process
 * that is down or still starting is skipped for the next one that is up.
 */
import type { ChildProcess } from "node:child_process";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { HANDED_CONNECTION } from "../../shared/src/server/handover";

export interface Front {
  port: number;
  close(): Promise<void>;
}

const MAX_API_PROCESSES = 64;

/**
 * How many API processes `npm start` runs: API_PROCESSES (`value`), or one per core. They share
 * Redis, the database and the pushes (the Socket.IO Redis adapter), so any number serves the same.
 */
export function apiProcessCount(value: string | undefined, cores: number): number {
  const wanted = value?.trim();
  if (!wanted) return Math.max(1, Math.min(cores, MAX_API_PROCESSES));
  const count = Number(wanted);
  if (!/^\d+$/u.test(wanted) || count < 1 || count > MAX_API_PROCESSES) {
    throw new Error(`API_PROCESSES must be a whole number from 1 to ${MAX_API_PROCESSES} (got "${wanted}")`);
  }
  return count;
}

/** The slot of a client address among `count` processes (FNV-1a: stable across runs and processes). */
export function slotOf(address: string | undefined, count: number): number {
  let hash = 0x811c9dc5;
  for (const char of address ?? "") {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % count;
}

/**
 * Listens on `port` and `host`; `slots()` gives each API process's current child when it is up
 * and serving, undefined while it is down or starting.
 */
export function startFront(port: number, host: string, slots: () => (ChildProcess | undefined)[]): Promise<Front> {
  const server = createServer({ pauseOnConnect: true }, (socket: Socket) => {
    const children = slots();
    const first = slotOf(socket.remoteAddress, children.length);
    for (let i = 0; i < children.length; i++) {
      const child = children[(first + i) % children.length];
      if (!child?.connected) continue;
      // Handed over, the socket is closed here (keepOpen false); a send that fails leaves it with us.
      child.send({ type: HANDED_CONNECTION }, socket, { keepOpen: false }, (error) => {
        if (error) socket.destroy();
      });
      return;
    }
    // No API process is up (all restarting): the client retries, as after a refused connection.
    socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
