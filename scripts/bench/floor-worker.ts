/** The floor's worker (floor.ts): one settle update per job, at the chat worker's concurrency. */
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { MongoClient } from "mongodb";

const { REDIS_URL, MONGODB_URI, FLOOR_QUEUE } = process.env;
if (!REDIS_URL || !MONGODB_URI || !FLOOR_QUEUE) throw new Error("REDIS_URL, MONGODB_URI and FLOOR_QUEUE are required");

const mongo = await MongoClient.connect(MONGODB_URI);
const wallets = mongo.db().collection<{ _id: string; settled?: number }>("floor_wallets");
const worker = new Worker(
  FLOOR_QUEUE,
  async (job) => {
    await wallets.updateOne({ _id: (job.data as { userId: string }).userId }, { $inc: { settled: 1 } });
  },
  {
    connection: new Redis(REDIS_URL, { maxRetriesPerRequest: null }),
    concurrency: Number(process.env.FLOOR_CONCURRENCY ?? 1),
  },
);
await worker.waitUntilReady();
process.send?.({ type: "ready" });
process.on("SIGTERM", () => void Promise.all([worker.close(), mongo.close()]).then(() => process.exit(0)));
