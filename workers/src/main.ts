import { Worker } from "bullmq";
import mongoose from "mongoose";
import { QUEUE_NAMES, type QueueName } from "@storefront/shared";
import { connectMongo, createLogger, createRedis, loadConfigOrExit, type Config } from "@storefront/shared/server";
import { processors } from "./jobs/index";

const config = loadConfigOrExit();
const log = createLogger("workers", config.LOG_LEVEL);

const CONCURRENCY: Record<QueueName, (c: Config) => number> = {
  chat: (c) => c.WORKER_CONCURRENCY_CHAT,
  image: (c) => c.WORKER_CONCURRENCY_IMAGE,
  video: (c) => c.WORKER_CONCURRENCY_VIDEO,
  "sms-reply": (c) => c.WORKER_CONCURRENCY_SMS_REPLY,
};

function queuesToServe(): QueueName[] {
  if (!config.WORKER_QUEUES) return [...QUEUE_NAMES];
  const wanted = config.WORKER_QUEUES.split(",").map((q) => q.trim());
  const unknown = wanted.filter((q) => !(QUEUE_NAMES as readonly string[]).includes(q));
  if (unknown.length) {
    log.fatal({ unknown }, "WORKER_QUEUES names unknown queues");
    process.exit(1);
  }
  return wanted as QueueName[];
}

async function main(): Promise<void> {
  const missing = QUEUE_NAMES.filter((q) => typeof processors[q] !== "function");
  if (missing.length) throw new Error(`no processor for queues: ${missing.join(", ")}`);
  await connectMongo(config.MONGODB_URI);
  const connection = createRedis(config.REDIS_URL);
  const workers = queuesToServe().map(
    (name) =>
      new Worker(name, processors[name], {
        connection,
        concurrency: CONCURRENCY[name](config),
        autorun: true,
      }),
  );
  for (const worker of workers) {
    worker.on("failed", (job, error) => log.warn({ queue: worker.name, jobId: job?.id, err: error }, "job failed"));
    worker.on("error", (error) => log.error({ queue: worker.name, err: error }, "worker error"));
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  log.info({ queues: workers.map((w) => w.name) }, "workers ready");
  process.send?.({ type: "ready" });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, "finishing active jobs before exit");
    await Promise.all(workers.map((w) => w.close()));
    await connection.quit().catch(() => undefined);
    await mongoose.disconnect();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, "workers failed to start");
  process.exit(1);
});
