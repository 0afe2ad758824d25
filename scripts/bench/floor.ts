/**
 * The physical floor of a charged AI call (docs/performance.md): the least any design could do on
 * the same Redis and database. One session read from Redis, one guarded debit, one BullMQ add,
 * and the answer when the floor worker (floor-worker.ts, one settle update) completes the job,
 * awaited through one QueueEvents listener for the process. No validation, pricing, ledger or
 * logging: whatever the product spends beyond this is its own overhead.
 */
import { randomUUID } from "node:crypto";
import { Queue, QueueEvents } from "bullmq";
import express from "express";
import { Redis } from "ioredis";
import { MongoClient } from "mongodb";

const { REDIS_URL, MONGODB_URI, FLOOR_QUEUE } = process.env;
if (!REDIS_URL || !MONGODB_URI || !FLOOR_QUEUE) throw new Error("REDIS_URL, MONGODB_URI and FLOOR_QUEUE are required");

const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const mongo = await MongoClient.connect(MONGODB_URI);
const wallets = mongo.db().collection<{ _id: string; coins: number }>("floor_wallets");
const queue = new Queue(FLOOR_QUEUE, { connection: redis });
const events = new QueueEvents(FLOOR_QUEUE, { connection: new Redis(REDIS_URL, { maxRetriesPerRequest: null }) });
await events.waitUntilReady();

const waiting = new Map<string, () => void>();
events.on("completed", ({ jobId }) => {
  waiting.get(jobId)?.();
  waiting.delete(jobId);
});

const app = express();
app.use(express.json({ limit: "100kb" }));
app.post("/floor", async (req, res) => {
  const token = /floor=([\w-]+)/u.exec(req.headers.cookie ?? "")?.[1];
  const session = token ? await redis.get(`floor:sess:${token}`) : null;
  if (!session) {
    res.status(401).json({ success: false });
    return;
  }
  const { userId } = JSON.parse(session) as { userId: string };
  const debited = await wallets.findOneAndUpdate({ _id: userId, coins: { $gte: 1 } }, { $inc: { coins: -1 } });
  if (!debited) {
    res.status(402).json({ success: false });
    return;
  }
  const jobId = randomUUID();
  const done = new Promise<void>((resolve) => waiting.set(jobId, resolve));
  await queue.add("floor", { userId, message: req.body?.message }, { jobId, removeOnComplete: true, removeOnFail: true });
  await done;
  res.json({ success: true, jobId });
});

const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({ type: "listening", port: typeof address === "object" && address ? address.port : 0 });
});
process.on("SIGTERM", () => {
  server.close();
  void Promise.all([events.close(), queue.close(), mongo.close()]).then(() => process.exit(0));
});
