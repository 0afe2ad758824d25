/** Direct access to the test run's MongoDB and a queue, for suites that inspect jobs and ledger entries. */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { afterAll, beforeAll, inject } from "vitest";

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
