/**
 * One public port for several API processes (`npm start` with API_PROCESSES above 1). The front
 * reads nothing: it accepts each TCP connection paused and hands the socket itself to an API process
 * over the process's IPC channel (as Node's cluster module does), which serves it as if it had
 * accepted it. A connection's bytes never pass through this process.
 *
 * A client stays on one process, picked by a hash of its address: Socket.IO's polling transport
 * (the fallback where WebSockets are blocked) sends each poll of a session as its own request,
 * possibly on a new connection, and only the process that made the session knows it. A process
 * that is down, starting, stopping or behind on its handovers is skipped for the next one.
 *
 * The front keeps its copy of each connection until the process answers (shared/src/server/
 * handover.ts): taken, and the copy is closed; refused (the process is stopping), and it goes to the
 * next process. A process that dies first never took it: the front closes it, and the client, whose
 * request was never read, sends it again.
 */
import type { ChildProcess } from "node:child_process";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { HANDED_CONNECTION, HANDOVER_ANSWER } from "../../shared/src/server/handover";

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

export interface Front {
  port: number;
  /** Stops listening at once; connections already handed over are their processes' to finish. */
  close(): void;
}

export interface FrontOptions {
  /**
   * Handovers a process may leave unanswered before new clients go to the next one: a process whose
   * event loop is stuck would otherwise gather sockets (file descriptors of this process) without limit.
   */
  maxWaiting?: number;
  /**
   * How long a handover may go unanswered before the front closes its copy and frees its place. A
   * process out of file descriptors never receives the socket (Node drops it without a word for a
   * socket sent this way), and one whose event loop is stuck holds its clients until it recovers.
   */
  answerTimeoutMs?: number;
  log?: (line: string) => void;
}

/** A process's handovers not answered yet, by id, each with its deadline. */
type Waiting = Map<number, { socket: Socket; timer: NodeJS.Timeout }>;

/**
 * Listens on `port` and `host`; `slots()` gives each API process's current child when it is up and
 * serving, undefined while it is down, starting or stopping.
 */
export function startFront(
  port: number,
  host: string,
  slots: () => (ChildProcess | undefined)[],
  options: FrontOptions = {},
): Promise<Front> {
  const maxWaiting = options.maxWaiting ?? 64;
  const answerTimeoutMs = options.answerTimeoutMs ?? 5000;
  const log = options.log ?? ((line: string) => process.stderr.write(`[front] ${line}\n`));
  const waitingOf = new Map<ChildProcess, Waiting>();
  /** Processes that refused a connection: they are stopping, and get no more. */
  const refusing = new WeakSet<ChildProcess>();
  let nextId = 0;

  function waitingFor(child: ChildProcess): Waiting {
    const known = waitingOf.get(child);
    if (known) return known;
    const waiting: Waiting = new Map();
    waitingOf.set(child, waiting);
    child.on("message", (message: { type?: unknown; id?: unknown; taken?: unknown } | null) => {
      if (message?.type !== HANDOVER_ANSWER || typeof message.id !== "number") return;
      const handed = waiting.get(message.id);
      if (!handed) return;
      waiting.delete(message.id);
      clearTimeout(handed.timer);
      if (message.taken === true) {
        handed.socket.destroy();
      } else {
        refusing.add(child);
        handOver(handed.socket);
      }
    });
    // Not taken before the process ended: nobody read the request; the client sends it again.
    child.once("exit", () => {
      for (const { socket, timer } of waiting.values()) {
        clearTimeout(timer);
        socket.destroy();
      }
      waiting.clear();
      waitingOf.delete(child);
    });
    return waiting;
  }

  function handOver(socket: Socket): void {
    const children = slots();
    const first = slotOf(socket.remoteAddress, children.length);
    for (let i = 0; i < children.length; i++) {
      const child = children[(first + i) % children.length];
      if (!child?.connected || child.exitCode !== null || child.signalCode !== null || refusing.has(child)) continue;
      const waiting = waitingFor(child);
      if (waiting.size >= maxWaiting) continue;
      const id = nextId++;
      // Closing the front's copy never harms a connection the process did take: it holds its own.
      const drop = () => {
        const handed = waiting.get(id);
        if (!handed) return;
        waiting.delete(id);
        clearTimeout(handed.timer);
        socket.destroy();
      };
      waiting.set(id, { socket, timer: setTimeout(drop, answerTimeoutMs) });
      child.send({ type: HANDED_CONNECTION, id }, socket, { keepOpen: true }, (error) => {
        if (error) drop();
      });
      return;
    }
    // Every process is down, stopping or stuck: the client retries, as after a refused connection.
    socket.destroy();
  }

  const server = createServer({ pauseOnConnect: true }, handOver);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      // Past the start, an accept error (out of file descriptors) is logged; the server keeps listening.
      server.on("error", (error) => log(`accepting a connection failed: ${error.message}`));
      resolve({
        port: (server.address() as AddressInfo).port,
        // The close callback would wait for every handed connection to end (Node asks each process).
        close: () => void server.close(),
      });
    });
  });
}
