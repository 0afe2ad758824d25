/**
 * Worker heartbeats (issue 33): each worker process writes, every second from its event loop, the
 * time of its beat for every queue it serves. A worker whose Redis connection is open but whose
 * process is frozen (SIGSTOP, a long pause, a stuck event loop) keeps its place in Redis's client
 * list, so BullMQ's worker count still counts it; its beats stop. The API reads the beats to tell a
 * live worker from a frozen one (api/src/services/queue-health.ts, frozen-workers.ts).
 *
 * Times are Redis's own clock (TIME inside the scripts), so processes on machines whose clocks
 * disagree still agree on how long a queue has been silent.
 */
import type { Redis } from "ioredis";
import type { QueueName } from "../queues";

/** How often a worker beats. */
export const HEARTBEAT_INTERVAL_MS = 1000;
/** A queue none of whose workers has beaten for this long has no live worker. */
export const SILENT_AFTER_MS = 5000;
/** Beats older than this are dropped from the set (a worker gone for good leaves no trace). */
const FORGET_AFTER_MS = 60_000;

/** The sorted set of a queue's beats: member = worker id, score = Redis time (ms) of its last beat. */
export const heartbeatKey = (queue: string) => `storefront:heartbeat:${queue}`;

/**
 * The marker left on a job whose hold was released because no worker of its queue was alive: the
 * job stays in BullMQ, and a worker that runs it later charges it again, once (workers/src/jobs/
 * charged.ts). Without the marker a released hold means a refunded request that must not run.
 */
export const rerunMarkerKey = (queue: string, jobId: string) => `storefront:rerun:${queue}:${jobId}`;

const BEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[1])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - tonumber(ARGV[2]))
  redis.call('PEXPIRE', key, ARGV[2])
end
return now`;

const SILENCE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
for i, key in ipairs(KEYS) do
  local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if newest[2] then out[i] = now - tonumber(newest[2]) else out[i] = -1 end
end
return out`;

export interface Heartbeat {
  /**
   * Stops beating (a worker that is closing takes no new job). Its last beat stays and ages: a stop
   * counts as silence only after SILENT_AFTER_MS, as a freeze does, and BullMQ's worker count sees
   * the closed connections at once.
   */
  stop(): void;
}

/** Beats for `queues` as `id` every HEARTBEAT_INTERVAL_MS; a failed write is retried at the next beat. */
export function startHeartbeat(
  redis: Redis,
  queues: readonly QueueName[],
  id: string,
  intervalMs = HEARTBEAT_INTERVAL_MS,
): Heartbeat {
  const keys = queues.map(heartbeatKey);
  const beat = () => redis.eval(BEAT, keys.length, ...keys, id, FORGET_AFTER_MS).catch(() => undefined);
  void beat();
  const timer = setInterval(beat, intervalMs);
  return { stop: () => clearInterval(timer) };
}

/** Milliseconds since the newest beat of each queue's workers (Infinity: none beat in the last minute). */
export async function silenceOf<Q extends string>(redis: Redis, queues: readonly Q[]): Promise<Record<Q, number>> {
  const keys = queues.map(heartbeatKey);
  const ages = (await redis.eval(SILENCE, keys.length, ...keys)) as number[];
  return Object.fromEntries(queues.map((queue, i) => [queue, ages[i]! < 0 ? Infinity : ages[i]!])) as Record<Q, number>;
}
