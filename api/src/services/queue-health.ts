/**
 * Refuses a call for a queue no live worker consumes, before anything is charged: without it the
 * call would hold the user's coins and answer 504 after the whole wait. BullMQ lists a queue's
 * workers by their Redis client names (one CLIENT LIST); the answer is cached briefly per queue,
 * so a burst of calls costs one look-up, and a restarted worker is seen within the cache time.
 */
import type { Queue } from "bullmq";
import { MESSAGES, QUEUE_NAMES, type QueueName } from "@storefront/shared";
import type { Queues } from "@storefront/shared/server";
import { AppError } from "../errors";

export const LIVE_WORKER_CACHE_MS = 1500;

type LiveCache = WeakMap<Queue, { at: number; live: Promise<boolean> }>;
/** The charged calls' answers. */
const chargeCache: LiveCache = new WeakMap();
/**
 * The readiness probe's own: its calls must not renew the answer a charged call relies on, or a
 * worker that just stopped would be taken for live for longer than a charged call alone keeps it.
 */
const probeCache: LiveCache = new WeakMap();

export function hasLiveWorker(queue: Queue, now = Date.now(), cache: LiveCache = chargeCache): Promise<boolean> {
  const cached = cache.get(queue);
  if (cached && now - cached.at < LIVE_WORKER_CACHE_MS) return cached.live;
  const live = queue.getWorkersCount().then(
    (count) => count > 0,
    // Redis itself failing is reported by the call's own Redis commands (503 as well).
    () => false,
  );
  cache.set(queue, { at: now, live });
  return live;
}

/**
 * The queues no live worker serves, for the readiness probe: cached as the charged calls' answer is,
 * so a probe that anyone may call as often as they like costs Redis one CLIENT LIST per queue every
 * 1.5 s at most.
 */
export async function queuesWithoutLiveWorker(queues: Queues): Promise<QueueName[]> {
  const now = Date.now();
  const live = await Promise.all(QUEUE_NAMES.map((name) => hasLiveWorker(queues[name], now, probeCache)));
  return QUEUE_NAMES.filter((_, i) => !live[i]);
}

/** 503 (code unavailable, `missing: ["worker:<queue>"]`) when no worker serves `queue`. */
export async function assertLiveWorker(queue: Queue): Promise<void> {
  if (await hasLiveWorker(queue)) return;
  throw new AppError(503, "unavailable", MESSAGES.serviceUnavailable, { missing: [`worker:${queue.name}`], retryAfter: 2 });
}
