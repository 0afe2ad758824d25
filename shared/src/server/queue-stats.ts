/**
 * Live numbers of the BullMQ queues for the admin Queues section: counts per state, jobs
 * finished per minute and processing time p50/p95. Read by the API (admin/queues.php) and by
 * the maintenance schedule that pushes "queues:stats" to the admins room.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { FailedJob, QueueStat } from "../schemas/admin";
import type { ServerEvents } from "../events";
import { monitoredJob, payloadBytes } from "./queue-privacy";

/** How many recent completed jobs the duration percentiles look at. */
const DURATION_SAMPLE = 100;

function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** `redis` is the connection the queues were created on (for exact per-minute counts). */
export async function queueStat(queue: Queue, redis: Redis, now = Date.now()): Promise<QueueStat> {
  const since = now - 60_000;
  const [counts, paused, completedLastMinute, failedLastMinute, recent] = await Promise.all([
    queue.getJobCounts("waiting", "prioritized", "active", "completed", "failed", "delayed", "waiting-children"),
    queue.isPaused(),
    // Finished sets are sorted sets scored by finish time: counting a score range is exact and cheap.
    redis.zcount(queue.toKey("completed"), since, "+inf"),
    redis.zcount(queue.toKey("failed"), since, "+inf"),
    queue.getJobs(["completed"], 0, DURATION_SAMPLE - 1),
  ]);
  const durations = recent
    .filter((j) => j && j.finishedOn && j.processedOn)
    .map((j) => j.finishedOn! - j.processedOn!)
    .sort((a, b) => a - b);
  return {
    name: queue.name,
    counts: {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts["waiting-children"] ?? 0),
      active: counts.active ?? 0,
      completed: counts.completed ?? 0,
      failed: counts.failed ?? 0,
      delayed: counts.delayed ?? 0,
    },
    jobs_per_minute: completedLastMinute + failedLastMinute,
    duration_p50_ms: percentile(durations, 50),
    duration_p95_ms: percentile(durations, 95),
    paused,
  };
}

export function queueStats(queues: readonly Queue[], redis: Redis, now = Date.now()): Promise<QueueStat[]> {
  return Promise.all(queues.map((q) => queueStat(q, redis, now)));
}

export async function failedJobs(queues: readonly Queue[], perQueue = 20): Promise<FailedJob[]> {
  const lists = await Promise.all(
    queues.map(async (queue) => {
      const jobs = await queue.getFailed(0, perQueue - 1);
      return jobs
        .filter((j) => j)
        .map((j) => ({
          queue: queue.name,
          id: String(j.id),
          name: j.name,
          // The provider's error, not the subscriber's text (queue-privacy.ts).
          error: monitoredJob(j).failedReason,
          code: monitoredJob(j).failureCode,
          bytes: payloadBytes(j.data),
          attempts: j.attemptsMade,
          failed_at: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
        }));
    }),
  );
  return lists.flat().sort((a, b) => (b.failed_at ?? "").localeCompare(a.failed_at ?? ""));
}

/** The "queues:stats" push: numbers only, a missing percentile is left out. */
export function queueStatsEvent(stats: readonly QueueStat[], at = new Date()): ServerEvents["queues:stats"] {
  const queues: Record<string, Record<string, number>> = {};
  for (const stat of stats) {
    const row: Record<string, number> = { ...stat.counts, jobs_per_minute: stat.jobs_per_minute, paused: stat.paused ? 1 : 0 };
    if (stat.duration_p50_ms !== null) row.duration_p50_ms = stat.duration_p50_ms;
    if (stat.duration_p95_ms !== null) row.duration_p95_ms = stat.duration_p95_ms;
    queues[stat.name] = row;
  }
  return { at: at.toISOString(), queues };
}
