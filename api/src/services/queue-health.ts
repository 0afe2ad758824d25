/**
 * Refuses a call for a queue no live worker consumes, before anything is charged: without it the
 * call would hold the user's coins and answer 504 after the whole wait. A worker is live when it
 * is connected (BullMQ lists a queue's workers by their Redis client names, one CLIENT LIST) and
 * has beaten within SILENT_AFTER_MS (shared/src/server/heartbeat.ts): a frozen worker keeps its
 * connection but stops beating. The answer is cached briefly per queue, so a burst of calls costs
 * one look-up, and a frozen or restarted worker is seen within the cache time (1 s: a queue silent
 * for 5 s is refused from 6 s at the latest).
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { MESSAGES, QUEUE_NAMES, type QueueName } from "@storefront/shared";
import { silenceOf, SILENT_AFTER_MS, type Queues } from "@storefront/shared/server";
import { AppError } from "../errors";

const LIVE_WORKER_CACHE_MS = 1000;

type LiveCache = WeakMap<Queue, { at: number; live: Promise<boolean> }>;
/** The charged calls' answers. */
const chargeCache: LiveCache = new WeakMap();
/**
 * The readiness probe's own: its calls must not renew the answer a charged call relies on, or a
 * worker that just stopped would be taken for live for longer than a charged call alone keeps it.
 */
const probeCache: LiveCache = new WeakMap();

/** Whether `queue` has a live worker: connected, and beaten within SILENT_AFTER_MS (read through `redis`). */
export function hasLiveWorker(queue: Queue, redis: Redis, now = Date.now(), cache: LiveCache = chargeCache): Promise<boolean> {
  const cached = cache.get(queue);
  if (cached && now - cached.at < LIVE_WORKER_CACHE_MS) return cached.live;
  const live = Promise.all([queue.getWorkersCount(), silenceOf(redis, [queue.name])]).then(
    ([count, silence]) => count > 0 && silence[queue.name]! < SILENT_AFTER_MS,
    // Redis itself failing is reported by the call's own Redis commands (503 as well).
    () => false,
  );
  cache.set(queue, { at: now, live });
  return live;
}

/**
 * The queues no live worker serves, for the readiness probe: cached as the charged calls' answer is,
 * so a probe that anyone may call as often as they like costs Redis one CLIENT LIST and one beat
 * read per queue every second at most.
 */
export async function queuesWithoutLiveWorker(queues: Queues, redis: Redis): Promise<QueueName[]> {
  const now = Date.now();
  const live = await Promise.all(QUEUE_NAMES.map((name) => hasLiveWorker(queues[name], redis, now, probeCache)));
  return QUEUE_NAMES.filter((_, i) => !live[i]);
}

/** 503 (code unavailable, `missing: ["worker:<queue>"]`) when no worker serves `queue`. */
export async function assertLiveWorker(queue: Queue, redis: Redis): Promise<void> {
  if (await hasLiveWorker(queue, redis)) return;
  throw new AppError(503, "unavailable", MESSAGES.serviceUnavailable, { missing: [`worker:${queue.name}`], retryAfter: 2 });
}
