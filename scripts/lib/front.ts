/**
 * One public port for several API processes (`npm start` with API_PROCESSES above 1). The front
 * reads nothing: it accepts each TCP connection paused and hands the socket itself to an API process
 * over the process's IPC channel (as Node's cluster module does), which serves it as if it had
 * accepted it. A connection's bytes never pass through this process.
 *
 * A client stays on one process, picked by a hash of its address: Socket.IO's polling transport
 * (the fallback where WebSockets are blocked) sends each poll of a session as its own request,
 * possibly on a new connection, and only the process that made the session knows it. A process
 * that is down, starting, stopping or behind on its handovers is skipped for the next one; when
 * none can take a connection, it waits in the front (never reset), up to a bound past which it is
 * answered 503 with Retry-After (docs/operations.md, "Scaling").
 *
 * The front keeps its copy of each connection until the process answers (shared/src/server/
 * handover.ts): taken, and the copy is closed; refused (the process is stopping), and it goes to the
 * next process. A process that dies first never took it: the front hands it to another process.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { MESSAGES } from "@storefront/shared";
import { HANDED_CONNECTION, HANDOVER_ANSWER } from "../../shared/src/server/handover";

const MAX_API_PROCESSES = 64;

/**
 * How many API processes `npm start` runs: API_PROCESSES (`value`), or one per two cores (one on
 * two cores). They share Redis, the database and the pushes (the Socket.IO Redis adapter), so any
 * number serves the same. The default leaves half the cores to Redis, the database and the
 * workers, which share the machine: on two cores a second API process made chat and wallet
 * throughput lower, for clients on many addresses and on one (docs/performance.md, "API processes
 * under npm start").
 */
export function apiProcessCount(value: string | undefined, cores: number): number {
  const wanted = value?.trim();
  if (!wanted) return Math.max(1, Math.min(Math.floor(cores / 2), MAX_API_PROCESSES));
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
   * Handovers a process may leave unanswered before new clients go to the next one (and, when every
   * process has this many, wait in the front): a process whose event loop is stuck would otherwise
   * gather sockets (file descriptors of this process) without limit.
   */
  maxWaiting?: number;
  /**
   * How long a handover may go unanswered before the process is passed over for new clients until it
   * answers again. Its connection stays where it is: the process may still take it (a stuck event
   * loop that recovers), and handing it to another as well would have two processes read one socket.
   */
  answerTimeoutMs?: number;
  /**
   * How long after that the front gives up its own copy of a connection still unanswered: a process
   * out of file descriptors never receives the socket (Node drops it without a word for a socket sent
   * this way), and only then is the connection closed by this.
   */
  abandonAfterMs?: number;
  /**
   * Connections the front may hold that no process has taken (waiting for one, or handed and not
   * answered yet); past it a new connection is answered 503 with Retry-After. Each is a file
   * descriptor of this process: the default is 80% of its open-file limit, less 256 (frontBound).
   */
  maxHeld?: number;
  /** How long a connection may wait in the front for a process before it is answered 503 instead. */
  queueTimeoutMs?: number;
  /**
   * Connections being answered 503 the front may hold beyond what `maxHeld` leaves them (they count
   * against `maxHeld` too); past both a new connection is closed at once: answering it would take a
   * file descriptor the front does not have to spare. Default: an eighth of `maxHeld`, 64 at least.
   */
  maxAnswering?: number;
  /** How long a 503 answer may take, from its first byte to the socket's close, however the client trickles. */
  answerLifetimeMs?: number;
  log?: (line: string) => void;
}

/** A process's handovers not answered yet, by id (oldest first), each with when it was sent and its deadline. */
type Waiting = Map<number, { socket: Socket; at: number; timer: NodeJS.Timeout }>;

/** This process's limit of open files (Linux's /proc/self/limits), or 1,024 where it cannot be read. */
function openFileLimit(limits = "/proc/self/limits"): number {
  try {
    const line = readFileSync(limits, "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = Number(line?.split(/\s{2,}/u)[1]);
    return Number.isInteger(soft) && soft > 0 ? soft : 1024;
  } catch {
    return 1024;
  }
}

/** The connections the front holds at most for `openFiles` (its open-file limit): 80% of it, less 256 kept for the rest. */
function frontBound(openFiles: number): number {
  return Math.max(64, Math.floor(openFiles * 0.8) - 256);
}

/** Seconds a client told 503 by the front is asked to wait before it tries again. */
const FRONT_RETRY_AFTER_S = 2;
/** The API's own 503 body (api/src/middleware/errors.ts), so clients read it as they read the API's. */
const BUSY_BODY = JSON.stringify({
  success: false,
  error: MESSAGES.serviceUnavailable,
  code: "unavailable",
  retryAfter: FRONT_RETRY_AFTER_S,
});
const BUSY_ANSWER = [
  "HTTP/1.1 503 Service Unavailable",
  `Retry-After: ${FRONT_RETRY_AFTER_S}`,
  "Content-Type: application/json; charset=utf-8",
  "Connection: close",
  `Content-Length: ${Buffer.byteLength(BUSY_BODY)}`,
  "",
  BUSY_BODY,
].join("\r\n");

/**
 * Answers 503 on a connection the front never handed over, without a reset: the answer and a FIN
 * first, then the request is read and dropped (closing a socket with unread bytes would send an RST,
 * and the client would lose the answer), and the socket is closed once the client closes its side,
 * or `lifetimeMs` after the answer whatever the client does (not an idle timeout: a client sending a
 * byte now and then would keep it open for ever). `closed` runs once, when the socket is gone.
 */
function answerBusy(socket: Socket, lifetimeMs: number, closed: () => void): void {
  const deadline = setTimeout(() => socket.destroy(), lifetimeMs);
  socket.once("close", () => {
    clearTimeout(deadline);
    closed();
  });
  socket.on("error", () => socket.destroy());
  socket.once("end", () => socket.destroy());
  socket.end(BUSY_ANSWER);
  socket.resume();
}

/**
 * Listens on `port` and `host`; `slots()` gives each API process's current child when it is up and
 * serving, undefined while it is down, starting or stopping.
 *
 * No connection is ever reset for load: one that no process can take now (each has `maxWaiting`
 * handovers unanswered, or none is up) waits, unread, in a queue of the front and is handed over
 * as soon as a process answers or comes up, as Node's cluster module queues them. Past `maxHeld`
 * connections held (those being answered 503 included), or `queueTimeoutMs` in the queue, it is
 * answered 503 with Retry-After, within `answerLifetimeMs`; past `maxAnswering` of those too, it is
 * closed unanswered.
 */
export function startFront(
  port: number,
  host: string,
  slots: () => (ChildProcess | undefined)[],
  options: FrontOptions = {},
): Promise<Front> {
  const maxWaiting = options.maxWaiting ?? 64;
  const answerTimeoutMs = options.answerTimeoutMs ?? 5000;
  const abandonAfterMs = options.abandonAfterMs ?? 60_000;
  const maxHeld = options.maxHeld ?? frontBound(openFileLimit());
  const queueTimeoutMs = options.queueTimeoutMs ?? 30_000;
  const maxAnswering = options.maxAnswering ?? Math.max(64, Math.floor(maxHeld / 8));
  const answerLifetimeMs = options.answerLifetimeMs ?? 5000;
  const log = options.log ?? ((line: string) => process.stderr.write(`[front] ${line}\n`));
  const waitingOf = new Map<ChildProcess, Waiting>();
  /** Processes that refused a connection: they are stopping, and get no more. */
  const refusing = new WeakSet<ChildProcess>();
  /** Connections no process could take yet, oldest first, each with the time it came. */
  const queued: { socket: Socket; at: number }[] = [];
  let unanswered = 0;
  /** Sockets being answered 503, until they close: file descriptors like the rest. */
  let answering = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let nextId = 0;
  let lastBusyLog = 0;

  function waitingFor(child: ChildProcess): Waiting {
    const known = waitingOf.get(child);
    if (known) return known;
    const waiting: Waiting = new Map();
    waitingOf.set(child, waiting);
    child.on("message", (message: { type?: unknown; id?: unknown; taken?: unknown } | null) => {
      if (message?.type !== HANDOVER_ANSWER || typeof message.id !== "number") return;
      const handed = waiting.get(message.id);
      if (handed) {
        waiting.delete(message.id);
        unanswered -= 1;
        clearTimeout(handed.timer);
        if (message.taken === true) {
          handed.socket.destroy();
        } else {
          refusing.add(child);
          place(handed.socket, Date.now());
        }
      }
      drain();
    });
    // Not answered before the process ended: it never read the request; another process gets it.
    child.once("exit", () => {
      const orphans = [...waiting.values()];
      waiting.clear();
      waitingOf.delete(child);
      for (const { socket, timer } of orphans) {
        clearTimeout(timer);
        unanswered -= 1;
        place(socket, Date.now());
      }
    });
    return waiting;
  }

  /** The process to hand a client at `address` to now, if any: its own slot, else the next that can take it. */
  function pick(address: string | undefined): ChildProcess | undefined {
    const children = slots();
    const first = slotOf(address, children.length);
    for (let i = 0; i < children.length; i++) {
      const child = children[(first + i) % children.length];
      if (!child?.connected || child.exitCode !== null || child.signalCode !== null) continue;
      if (refusing.has(child)) continue;
      const waiting = waitingFor(child);
      if (waiting.size >= maxWaiting) continue;
      // Behind: its oldest handover is unanswered for longer than answerTimeoutMs.
      const oldest = waiting.values().next().value;
      if (oldest && Date.now() - oldest.at > answerTimeoutMs) continue;
      return child;
    }
    return undefined;
  }

  function handTo(child: ChildProcess, socket: Socket): void {
    const waiting = waitingFor(child);
    const id = nextId++;
    unanswered += 1;
    // Unanswered for that long, the process never got the socket: the front's copy is the last one.
    const timer = setTimeout(() => {
      if (!waiting.delete(id)) return;
      unanswered -= 1;
      log(`a connection handed to pid ${child.pid} was not taken in ${(answerTimeoutMs + abandonAfterMs) / 1000} s; closed`);
      socket.destroy();
    }, answerTimeoutMs + abandonAfterMs);
    waiting.set(id, { socket, at: Date.now(), timer });
    child.send({ type: HANDED_CONNECTION, id }, socket, { keepOpen: true }, (error) => {
      if (!error || !waiting.delete(id)) return;
      // The message never left: the process did not get the socket, so another one may.
      clearTimeout(timer);
      unanswered -= 1;
      place(socket, Date.now());
    });
  }

  /** Hands `socket` over now if a process can take it and none waits before it, else queues it. */
  function place(socket: Socket, at: number): void {
    if (socket.destroyed) return;
    const child = queued.length === 0 ? pick(socket.remoteAddress) : undefined;
    if (child) return handTo(child, socket);
    queued.push({ socket, at });
    // A process coming up (or back) sends no message: the queue is looked at again every 50 ms.
    retryTimer ??= setInterval(drain, 50);
  }

  /** Answers 503 on a socket the front holds, counted until it closes. */
  function busy(socket: Socket): void {
    answering += 1;
    answerBusy(socket, answerLifetimeMs, () => (answering -= 1));
  }

  /** Hands queued connections over while processes can take them; answers 503 to those that waited too long. */
  function drain(): void {
    const now = Date.now();
    while (queued.length > 0) {
      const { socket, at } = queued[0]!;
      if (socket.destroyed) {
        queued.shift();
        continue;
      }
      if (now - at > queueTimeoutMs) {
        queued.shift();
        busy(socket);
        continue;
      }
      const child = pick(socket.remoteAddress);
      if (!child) break;
      queued.shift();
      handTo(child, socket);
    }
    if (queued.length === 0 && retryTimer) {
      clearInterval(retryTimer);
      retryTimer = undefined;
    }
  }

  function accept(socket: Socket): void {
    if (queued.length + unanswered + answering >= maxHeld) {
      const now = Date.now();
      if (now - lastBusyLog > 10_000) {
        lastBusyLog = now;
        log(`${maxHeld} connections already wait for an API process or an answer; answering 503 to new ones`);
      }
      // Out of room for answers too: a socket held to answer would be one file descriptor past the bound.
      if (answering >= maxAnswering) socket.destroy();
      else busy(socket);
      return;
    }
    place(socket, Date.now());
  }

  const server = createServer({ pauseOnConnect: true }, accept);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    // The kernel's queue of connections not accepted yet, as long as it allows (somaxconn): a burst
    // waits there for the front's accept instead of having its SYNs dropped and retried a second later.
    server.listen({ port, host, backlog: 4096 }, () => {
      server.off("error", reject);
      // Past the start, an accept error (out of file descriptors) is logged; the server keeps listening.
      server.on("error", (error) => log(`accepting a connection failed: ${error.message}`));
      resolve({
        port: (server.address() as AddressInfo).port,
        // The close callback would wait for every handed connection to end (Node asks each process).
        close: () => {
          void server.close();
          if (retryTimer) clearInterval(retryTimer);
          retryTimer = undefined;
          for (const { socket } of queued.splice(0)) busy(socket);
        },
      });
    });
  });
}
