/**
 * The baseline of the latency measurement: a BullMQ worker process with a trivial processor, on
 * the same Redis as the product, so add → completed measures BullMQ and Redis alone.
 */
import { Worker } from "bullmq";
import { Redis } from "ioredis";

const redisUrl = process.env.REDIS_URL;
const queueName = process.env.RAW_QUEUE;
if (!redisUrl || !queueName) throw new Error("REDIS_URL and RAW_QUEUE are required");
const worker = new Worker(queueName, async (job) => ({ echoed: job.data as unknown }), {
  connection: new Redis(redisUrl, { maxRetriesPerRequest: null }),
  concurrency: Number(process.env.RAW_CONCURRENCY ?? 1),
});
await worker.waitUntilReady();
process.send?.({ type: "ready" });
process.on("SIGTERM", () => void worker.close().then(() => process.exit(0)));
