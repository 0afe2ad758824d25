import { Redis, type RedisOptions } from "ioredis";
import mongoose from "mongoose";
import type { Logger } from "./logger";
import { migratePhoneIndex } from "./migrations/phone-proof";

mongoose.set("strictQuery", true);
// connectMongo builds the indexes once, awaited, instead of every model starting its own build in
// the background on connect: the API ran every build twice, and a worker could take a job before
// the unique indexes it relies on existed on a fresh database.
mongoose.set("autoIndex", false);
mongoose.set("autoCreate", false);
// Every query would otherwise capture the caller's stack (`new Error().stack`) to show it if the
// query is run twice by mistake; with source maps on, that was 3.4% of the API's CPU under load.
mongoose.set("skipOriginalStackTraces", true);

/**
 * Logs an outage of one dependency once when it starts and once when it ends, however many
 * reconnect attempts (each an "error" event) lie between.
 */
export interface OutageLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export class OutageLog {
  private since: number | null = null;

  constructor(
    private readonly log: OutageLogger,
    readonly dependency: string,
  ) {}

  get down(): boolean {
    return this.since !== null;
  }

  failed(error: unknown): void {
    if (this.since !== null) return;
    this.since = Date.now();
    this.log.warn({ err: error, dependency: this.dependency }, `${this.dependency} unreachable; reconnecting`);
  }

  recovered(): void {
    if (this.since === null) return;
    const downMs = Date.now() - this.since;
    this.since = null;
    this.log.info({ dependency: this.dependency, downMs }, `${this.dependency} reachable again`);
  }
}

/** True for the errors a dropped or refused connection raises (an outage, not a bug). */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  return (
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTCONN"].includes(e?.code ?? "") ||
    /Connection is closed|connect ECONNREFUSED|Stream isn't writeable/u.test(e?.message ?? "")
  );
}

export interface MongoConnectOptions {
  /**
   * Bound on how long an operation waits for an unreachable server (and mongoose's buffering
   * while disconnected): the API answers 503 quickly instead of hanging. Workers keep the default.
   */
  failFastMs?: number;
  outage?: OutageLog;
}

/** Set by disconnectMongo: the "disconnected" that follows is this process stopping, not an outage. */
let closing = false;

/**
 * Connects, then builds every model's indexes (and so its collection): cheap when they exist, and
 * done before any write relies on a unique key, also on a database nothing has started on yet.
 */
export async function connectMongo(uri: string, options: MongoConnectOptions = {}): Promise<typeof mongoose> {
  const { failFastMs, outage } = options;
  closing = false;
  if (failFastMs) mongoose.set("bufferTimeoutMS", failFastMs);
  if (outage) {
    // Not an outage when this process closes the connection itself (disconnectMongo).
    mongoose.connection.on("disconnected", () => {
      if (!closing) outage.failed(new Error("disconnected"));
    });
    mongoose.connection.on("reconnected", () => outage.recovered());
    mongoose.connection.on("connected", () => outage.recovered());
  }
  // A short selection timeout would fail the first connection while the server still starts:
  // try for ten seconds, as the default would.
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await mongoose.connect(uri, { serverSelectionTimeoutMS: failFastMs ?? 10_000, maxPoolSize: 50 });
      break;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await mongoose.disconnect().catch(() => undefined);
    }
  }
  // Before the models' indexes: an older data set's phone index conflicts with the sparse one.
  await migratePhoneIndex();
  await Promise.all(mongoose.modelNames().map((name) => mongoose.model(name).createIndexes()));
  return mongoose;
}

export async function disconnectMongo(): Promise<void> {
  closing = true;
  await mongoose.disconnect();
}

/** Every Redis client gets its error handler here: an outage is logged once, not per attempt. */
export function watchRedis(redis: Redis, outage: OutageLog): Redis {
  redis.on("error", (error) => outage.failed(error));
  redis.on("ready", () => outage.recovered());
  return redis;
}

const stderrLog: OutageLogger = {
  warn: (obj, msg) => process.stderr.write(`${msg}: ${(obj as { err?: Error }).err?.message ?? ""}\n`),
  info: (_obj, msg) => process.stderr.write(`${msg}\n`),
};

/**
 * A Redis connection; BullMQ needs maxRetriesPerRequest null on the connections it blocks on.
 * Without an `outage` log of the caller's, outages go to stderr (never an unhandled "error").
 */
export function createRedis(url: string, options: RedisOptions = {}, outage?: OutageLog): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
  return watchRedis(redis, outage ?? new OutageLog(stderrLog, "redis"));
}

export async function mongoReady(): Promise<boolean> {
  try {
    const db = mongoose.connection.db;
    if (!db) return false;
    await db.admin().command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}

/** The promise's value, or `fallback` if it fails or takes longer than `ms`. */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

/**
 * Logs and exits on an error nothing handled: the process may be in any state, so the
 * supervisor (npm start) or the orchestrator starts a clean one.
 */
export function exitOnFatalErrors(log: Pick<Logger, "fatal">): void {
  const die = (kind: string) => (error: unknown) => {
    log.fatal({ err: error }, `${kind}; exiting so the supervisor restarts this process`);
    process.exit(1);
  };
  process.on("unhandledRejection", die("unhandled promise rejection"));
  process.on("uncaughtException", die("uncaught exception"));
}

/**
 * Runs `shutdown` on SIGTERM and Ctrl+C, and when the supervisor that started this process (npm
 * start, the tests) dies without stopping it: its IPC channel closes, and the process stops instead
 * of living on as an orphan that holds its port and queues. A shutdown that has not ended the
 * process within `deadlineMs` is cut short: closing a connection to a Redis or database that is
 * gone for good waits forever (a supervisor killed with its whole stack left such orphans behind).
 */
export function stopOnSignals(shutdown: (reason: string) => Promise<void>, deadlineMs: number, log: Pick<Logger, "error">): void {
  const stop = (reason: string) => {
    setTimeout(() => {
      log.error({ reason, deadlineMs }, "shutdown did not finish in time; exiting");
      process.exit(1);
    }, deadlineMs).unref();
    void shutdown(reason);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("disconnect", () => stop("supervisor gone"));
}
