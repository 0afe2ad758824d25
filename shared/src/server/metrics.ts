/**
 * Prometheus metrics (prom-client) shared by the API and the workers.
 *
 * Per-process figures (HTTP requests, socket connections, webhook outcomes) live in this process's
 * registry; Prometheus scrapes every API replica. Figures about the whole cluster (queue depth, job
 * durations and failures, ledger entries) are read from Redis and MongoDB at scrape time, so any
 * replica answers them and no worker needs an HTTP port: workers only add to Redis counters
 * through `attachJobMetrics`.
 */
import type { Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { LedgerEntry } from "./models/ledger-entry";

export const METRIC_PREFIX = "storefront_";

/** Upper bounds (seconds) of the job duration histogram buckets; Redis keeps one counter per bucket. */
export const JOB_DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300] as const;
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Retained BullMQ jobs read per queue and scrape for the recent-duration and failure figures. */
const RECENT_JOBS = 100;
const JOB_METRICS_KEY = (queue: string) => `metrics:jobs:${queue}`;
const JOB_METRICS_QUEUES_KEY = "metrics:jobs:queues";

export const metricsRegistry = new Registry();
let defaultsStarted = false;

/** Process metrics (CPU, memory, event loop lag) labelled with the process role. */
export function startDefaultMetrics(role: string): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  metricsRegistry.setDefaultLabels({ role });
  // The event loop's delay sampled every 100 ms (each sample still measures how late it ran), not
  // every 10 ms: the default woke an idle API process about 170 times a second, 1% of a core.
  collectDefaultMetrics({ register: metricsRegistry, prefix: METRIC_PREFIX, eventLoopMonitoringPrecision: 100 });
}

export const httpRequests = new Counter({
  name: `${METRIC_PREFIX}http_requests_total`,
  help: "HTTP requests answered, by method, matched route pattern and status",
  labelNames: ["method", "route", "status"] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: `${METRIC_PREFIX}http_request_duration_seconds`,
  help: "HTTP request latency, by method, matched route pattern and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: HTTP_DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** SMS gateway webhook outcomes: accepted, duplicate, bad_signature, bad_request, rejected... */
export const webhookOutcomes = new Counter({
  name: `${METRIC_PREFIX}webhook_requests_total`,
  help: "SMS gateway webhook calls by outcome",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

export function recordWebhookOutcome(outcome: string): void {
  webhookOutcomes.inc({ outcome });
}

/** Phone code ceilings that refused everyone (codes to one number, per country, in all; wrong tries for one number): alert on any. */
export const phoneCodeCeilings = new Counter({
  name: `${METRIC_PREFIX}phone_code_ceilings_total`,
  help: "Phone code requests or tries refused by a ceiling shared by everyone, by ceiling",
  labelNames: ["ceiling"] as const,
  registers: [metricsRegistry],
});

const socketConnections = new Gauge({
  name: `${METRIC_PREFIX}socket_connections`,
  help: "Socket.IO connections open on this API process",
  registers: [metricsRegistry],
});

/** Anything with Socket.IO's engine client count (a socket.io Server), read at scrape time. */
export interface SocketCountSource {
  engine: { clientsCount: number };
}
let socketSource: SocketCountSource | undefined;

/** Call once with the Socket.IO server so /api/metrics reports its open connections. */
export function observeSocketServer(io: SocketCountSource): void {
  socketSource = io;
}

/** The counter increments of one finished job attempt (field of `metrics:jobs:<queue>` → amount). */
function outcomeIncrements(
  outcome: "completed" | "failed",
  durationSeconds: number | null,
  reason?: string,
): [field: string, by: number][] {
  const increments: [string, number][] = [[`outcome:${outcome}`, 1]];
  if (durationSeconds !== null && Number.isFinite(durationSeconds) && durationSeconds >= 0) {
    // One counter per bucket, not one per bound: the cumulative counts are summed when read.
    const bound = JOB_DURATION_BUCKETS.find((b) => durationSeconds <= b);
    if (bound !== undefined) increments.push([`b:${bound}`, 1]);
    increments.push(["count", 1], ["sum", durationSeconds]);
  }
  if (outcome === "failed") increments.push([`reason:${failureReason(reason)}`, 1]);
  return increments;
}

/** Adds counter increments of one queue to Redis in one transaction. */
async function writeIncrements(redis: Redis, queue: string, increments: Iterable<[string, number]>): Promise<void> {
  const key = JOB_METRICS_KEY(queue);
  const multi = redis.multi().sadd(JOB_METRICS_QUEUES_KEY, queue);
  for (const [field, by] of increments) {
    if (field === "sum") multi.hincrbyfloat(key, field, by);
    else multi.hincrby(key, field, by);
  }
  await multi.exec();
}

/** Records one finished job attempt in Redis, where every API replica can read it. */
export async function recordJobOutcome(
  redis: Redis,
  queue: string,
  outcome: "completed" | "failed",
  durationSeconds: number | null,
  reason?: string,
): Promise<void> {
  await writeIncrements(redis, queue, outcomeIncrements(outcome, durationSeconds, reason));
}

/** Failure reasons become label values: short, with ids and numbers folded so the set stays small. */
export function failureReason(message: string | undefined): string {
  if (!message) return "unknown";
  return (
    message
      .replace(/[0-9a-f]{24}/giu, "<id>")
      .replace(/\d+/gu, "<n>")
      .replace(/[\r\n\t]+/gu, " ")
      .trim()
      .slice(0, 80) || "unknown"
  );
}

/** The events of a BullMQ Worker that `attachJobMetrics` listens to. */
export interface WorkerEvents {
  name: string;
  on(event: "completed", listener: (job: Job) => void): unknown;
  on(event: "failed", listener: (job: Job | undefined, error: Error) => void): unknown;
}

function seconds(job: Job | undefined): number | null {
  if (!job?.processedOn) return null;
  return ((job.finishedOn ?? Date.now()) - job.processedOn) / 1000;
}

/** How long a worker keeps its job counts before adding them to Redis (a scrape is 15 s apart). */
export const JOB_METRICS_FLUSH_MS = 500;

/**
 * Workers call this once per BullMQ Worker: every completed or failed attempt adds to the Redis
 * counters behind storefront_job_duration_seconds and storefront_job_failures_total. The counts are
 * summed in memory and written at most every `flushMs` (one transaction, not one per job: under
 * load that was five Redis commands a job); `flush` writes what is left, for a stopping process.
 */
export function attachJobMetrics(worker: WorkerEvents, redis: Redis, flushMs = JOB_METRICS_FLUSH_MS): { flush(): Promise<void> } {
  let pending = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.size === 0) return;
    const written = pending;
    pending = new Map();
    await writeIncrements(redis, worker.name, written).catch(() => undefined);
  };
  const count = (outcome: "completed" | "failed", job: Job | undefined, reason?: string) => {
    for (const [field, by] of outcomeIncrements(outcome, seconds(job), reason))
      pending.set(field, (pending.get(field) ?? 0) + by);
    timer ??= setTimeout(() => void flush(), flushMs).unref();
  };
  worker.on("completed", (job) => count("completed", job));
  worker.on("failed", (job, error) => count("failed", job, error?.message));
  return { flush };
}

/** A histogram assembled from Redis bucket counters (prom-client cannot set histogram buckets). */
function jobDurationText(rows: { queue: string; hash: Record<string, string> }[]): string {
  const name = `${METRIC_PREFIX}job_duration_seconds`;
  const lines = [
    `# HELP ${name} Job processing time per queue (processedOn to finishedOn), cluster-wide`,
    `# TYPE ${name} histogram`,
  ];
  for (const { queue, hash } of rows) {
    const q = escapeLabel(queue);
    let below = 0;
    for (const bound of JOB_DURATION_BUCKETS) {
      below += Number(hash[`b:${bound}`] ?? 0);
      // `le:` counters are cumulative ones written before the per-bucket counters; still counted.
      lines.push(`${name}_bucket{queue="${q}",le="${bound}"} ${below + Number(hash[`le:${bound}`] ?? 0)}`);
    }
    const count = Number(hash.count ?? 0);
    lines.push(`${name}_bucket{queue="${q}",le="+Inf"} ${count}`);
    lines.push(`${name}_sum{queue="${q}"} ${Number(hash.sum ?? 0)}`);
    lines.push(`${name}_count{queue="${q}"} ${count}`);
  }
  return `${lines.join("\n")}\n`;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/gu, "\\\\").replace(/"/gu, '\\"').replace(/\n/gu, "\\n");
}

const QUEUE_STATES = ["waiting", "active", "delayed", "prioritized", "waiting-children", "completed", "failed"] as const;

export interface ClusterSources {
  redis: Redis;
  queues: Record<string, Queue>;
}

/** The cluster-wide figures, read now from Redis (BullMQ and the job counters) and MongoDB. */
async function clusterMetricsText(sources: ClusterSources): Promise<string> {
  // Built per scrape so two concurrent scrapes never reset each other's figures.
  const registry = new Registry();
  const registers = [registry];
  const queueJobs = new Gauge({
    name: `${METRIC_PREFIX}queue_jobs`,
    help: "Jobs in each BullMQ queue by state (waiting, active, delayed, failed...)",
    labelNames: ["queue", "state"] as const,
    registers,
  });
  const queueWorkers = new Gauge({
    name: `${METRIC_PREFIX}queue_workers`,
    help: "Live worker connections per queue",
    labelNames: ["queue"] as const,
    registers,
  });
  const jobsTotal = new Counter({
    name: `${METRIC_PREFIX}job_attempts_total`,
    help: "Finished job attempts per queue and outcome, cluster-wide (kept in Redis)",
    labelNames: ["queue", "outcome"] as const,
    registers,
  });
  const jobFailures = new Counter({
    name: `${METRIC_PREFIX}job_failures_total`,
    help: "Failed job attempts per queue and reason, cluster-wide (kept in Redis)",
    labelNames: ["queue", "reason"] as const,
    registers,
  });
  const ledgerEntries = new Counter({
    name: `${METRIC_PREFIX}wallet_ledger_entries_total`,
    help: "Applied wallet ledger entries by kind (debit, hold, release, refund, credit...)",
    labelNames: ["kind"] as const,
    registers,
  });
  const ledgerCoins = new Counter({
    name: `${METRIC_PREFIX}wallet_ledger_coins_total`,
    help: "Sum of |amount| of applied wallet ledger entries by kind, in coins",
    labelNames: ["kind"] as const,
    registers,
  });

  // Read from the jobs BullMQ retains, so they exist even where workers do not call attachJobMetrics.
  const recentDuration = new Gauge({
    name: `${METRIC_PREFIX}job_recent_duration_seconds`,
    help: `Processing time of the last ${RECENT_JOBS} completed jobs per queue (BullMQ processedOn to finishedOn)`,
    labelNames: ["queue", "quantile"] as const,
    registers,
  });
  const retainedFailed = new Gauge({
    name: `${METRIC_PREFIX}queue_failed_jobs_by_reason`,
    help: `Failed jobs BullMQ still retains per queue and reason (the last ${RECENT_JOBS})`,
    labelNames: ["queue", "reason"] as const,
    registers,
  });

  await Promise.all(
    Object.entries(sources.queues).map(async ([name, queue]) => {
      const counts = await queue.getJobCounts(...QUEUE_STATES);
      for (const state of QUEUE_STATES) queueJobs.set({ queue: name, state }, counts[state] ?? 0);
      queueWorkers.set({ queue: name }, await queue.getWorkersCount().catch(() => 0));

      const completed = await queue.getJobs(["completed"], 0, RECENT_JOBS - 1);
      const durations = completed
        .map((job) => (job?.processedOn && job.finishedOn ? (job.finishedOn - job.processedOn) / 1000 : null))
        .filter((d): d is number => d !== null)
        .sort((a, b) => a - b);
      if (durations.length) {
        for (const q of [0.5, 0.9, 0.99]) {
          recentDuration.set(
            { queue: name, quantile: String(q) },
            durations[Math.min(durations.length - 1, Math.floor(q * durations.length))]!,
          );
        }
      }
      const failed = await queue.getJobs(["failed"], 0, RECENT_JOBS - 1);
      const reasons = new Map<string, number>();
      for (const job of failed) {
        if (!job) continue;
        const reason = failureReason(job.failedReason);
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      }
      for (const [reason, count] of reasons) retainedFailed.set({ queue: name, reason }, count);
    }),
  );

  const recorded = new Set([...Object.keys(sources.queues), ...(await sources.redis.smembers(JOB_METRICS_QUEUES_KEY))]);
  const rows = await Promise.all(
    [...recorded].sort().map(async (queue) => ({ queue, hash: await sources.redis.hgetall(JOB_METRICS_KEY(queue)) })),
  );
  for (const { queue, hash } of rows) {
    for (const outcome of ["completed", "failed"]) jobsTotal.inc({ queue, outcome }, Number(hash[`outcome:${outcome}`] ?? 0));
    for (const [field, value] of Object.entries(hash)) {
      if (field.startsWith("reason:")) jobFailures.inc({ queue, reason: field.slice(7) }, Number(value));
    }
  }

  const byKind = await LedgerEntry.aggregate<{ _id: string; count: number; coins: number }>([
    { $group: { _id: "$kind", count: { $sum: 1 }, coins: { $sum: { $abs: "$amount" } } } },
  ]);
  for (const row of byKind) {
    ledgerEntries.inc({ kind: row._id }, row.count);
    ledgerCoins.inc({ kind: row._id }, row.coins);
  }

  return (await registry.metrics()) + jobDurationText(rows);
}

/** The whole scrape: this process's metrics followed by the cluster-wide ones. */
export async function renderMetrics(sources: ClusterSources): Promise<string> {
  socketConnections.set(socketSource?.engine.clientsCount ?? 0);
  const own = await metricsRegistry.metrics();
  return `${own}${own.endsWith("\n") ? "" : "\n"}${await clusterMetricsText(sources)}`;
}

export const METRICS_CONTENT_TYPE = metricsRegistry.contentType;
