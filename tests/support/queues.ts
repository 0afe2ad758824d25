/** Direct access to the test run's MongoDB and a queue, for suites that inspect jobs and ledger entries. */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { afterAll, beforeAll, inject } from "vitest";
import { until } from "./realtime";

/** Connects mongoose and opens `name`'s queue for the file's tests; closes both after them. */
export function useQueue(name: string): () => Queue {
  let redis: Redis;
  let queue: Queue;
  beforeAll(async () => {
    await mongoose.connect(inject("mongoUri"));
    redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
    queue = new Queue(name, { connection: redis });
  });
  afterAll(async () => {
    await queue.close();
    redis.disconnect();
    await mongoose.disconnect();
  });
  return () => queue;
}

/** Whether `queue` holds a job with this id (in any state), read once on its own connection. */
export async function queuedJob(name: string, jobId: string): Promise<boolean> {
  const redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection: redis });
  try {
    return Boolean(await queue.getJob(jobId));
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/**
 * Waits until job `jobId` of queue `name` is in `state`, on a connection of its own to `redisUrl`
 * (a stack the suite started itself); `what` names the wait in the timeout error.
 */
export async function untilJobState(
  redisUrl: string,
  name: string,
  jobId: string,
  state: Awaited<ReturnType<Queue["getJobState"]>>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection: redis });
  try {
    await until(async () => (await queue.getJobState(jobId)) === state, timeoutMs, what);
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
