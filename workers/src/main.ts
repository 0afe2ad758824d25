import { hostname } from "node:os";
import { Queue, Worker } from "bullmq";
import { QUEUE_NAMES, type QueueName } from "@storefront/shared";
import {
  attachJobMetrics,
  connectMongo,
  disconnectMongo,
  startCacheBus,
  exitOnFatalErrors,
  stopOnSignals,
  within,
  isConnectionError,
  loadConfigOrExit,
  startHeartbeat,
  OutageLog,
  providerBackoff,
  startOperatorBilling,
  type Config,
} from "@storefront/shared/server";
import { createWorkerContext } from "./context";
import { createProcessors } from "./jobs/index";
import { bindSmsGateways, closeSmsGateways } from "./jobs/sms-reply";
import { intervalOf, schedules } from "./schedules/index";

const ctx = createWorkerContext(loadConfigOrExit());
const { config, log } = ctx;
exitOnFatalErrors(log);
const processors = createProcessors(ctx);

const CONCURRENCY: Record<QueueName, (c: Config) => number> = {
  chat: (c) => c.WORKER_CONCURRENCY_CHAT,
  image: (c) => c.WORKER_CONCURRENCY_IMAGE,
  video: (c) => c.WORKER_CONCURRENCY_VIDEO,
  "sms-reply": (c) => c.WORKER_CONCURRENCY_SMS_REPLY,
  maintenance: (c) => c.WORKER_CONCURRENCY_MAINTENANCE,
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

/** Every schedule gets one BullMQ job scheduler; upserting is idempotent across processes. */
async function registerSchedules(): Promise<void> {
  const names = schedules.map((s) => s.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length) throw new Error(`schedules named twice: ${twice.join(", ")}`);
  const queue = new Queue("maintenance", { connection: ctx.redis });
  for (const schedule of schedules) {
    await queue.upsertJobScheduler(
      schedule.name,
      { every: intervalOf(schedule, config) },
      { name: schedule.name, opts: { removeOnComplete: { count: 20 }, removeOnFail: { count: 50 } } },
    );
  }
  await queue.close();
}

async function main(): Promise<void> {
  const missing = QUEUE_NAMES.filter((q) => typeof processors[q] !== "function");
  if (missing.length) throw new Error(`no processor for queues: ${missing.join(", ")}`);
  // The renewal schedule charges through it (schedules/index.ts).
  startOperatorBilling(config.OPERATOR_BILLING, log);
  await connectMongo(config.MONGODB_URI, { outage: new OutageLog(log, "mongodb") });
  // The wallet tables are read per SMS reply from this process's cache once subscribed.
  void startCacheBus(ctx.redis);
  const served = queuesToServe();
  if (served.includes("maintenance")) {
    await registerSchedules();
    // A Redis that came back without its data (no AOF) has lost the schedulers: upsert them
    // again on every reconnect (idempotent: BullMQ keeps one scheduler per name).
    ctx.redis.on("ready", () => {
      registerSchedules().catch((error: unknown) => log.warn({ err: error }, "re-registering schedules failed"));
    });
  }
  // The worker connections' errors during an outage are the outage: logged once per outage.
  const redisOutage = new OutageLog(log, "redis (worker)");
  ctx.redis.on("ready", () => redisOutage.recovered());
  const workers = served.map(
    (name) =>
      new Worker(name, processors[name], {
        // Recorded on each job as processedBy, so logs and tests can tell which process ran it.
        name: `${hostname()}:${process.pid}`,
        connection: ctx.redis,
        concurrency: CONCURRENCY[name](config),
        autorun: true,
        // A SIGKILLed worker stops renewing its lock; another worker takes the job over once
        // the lock has expired and the next stalled check runs.
        lockDuration: config.WORKER_LOCK_DURATION_MS,
        stalledInterval: config.WORKER_LOCK_DURATION_MS,
        settings: { backoffStrategy: providerBackoff },
      }),
  );
  const jobMetrics = workers.map((worker) => attachJobMetrics(worker, ctx.redis));
  for (const worker of workers) {
    worker.on("failed", (job, error) =>
      log.warn({ queue: worker.name, jobId: job?.id, requestId: job?.data?.requestId, err: error }, "job attempt failed"),
    );
    worker.on("stalled", (jobId) => log.warn({ queue: worker.name, jobId }, "job stalled; handed to another worker"));
    worker.on("error", (error) =>
      isConnectionError(error) ? redisOutage.failed(error) : log.error({ queue: worker.name, err: error }, "worker error"),
    );
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  if (served.includes("sms-reply")) bindSmsGateways(ctx);
  // Written from this event loop: a process that is frozen (or whose loop is stuck) stops beating,
  // though its Redis connections stay open (shared/src/server/heartbeat.ts).
  const heartbeat = startHeartbeat(ctx.redis, served, `${hostname()}:${process.pid}`);
  log.info({ queues: workers.map((w) => w.name) }, "workers ready");
  process.send?.({ type: "ready" });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // close() takes no new jobs and lets active ones finish. A job still running after the
    // grace period is left locked: its lock expires and another worker's stalled check takes it.
    log.info({ signal }, "finishing active jobs before exit");
    heartbeat.stop();
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), config.WORKER_SHUTDOWN_GRACE_MS);
    });
    const outcome = await Promise.race([Promise.all(workers.map((w) => w.close())), graceOver]);
    clearTimeout(timer);
    // The job counts not yet written, bounded: with Redis unreachable the write would wait forever.
    const flushMetrics = () => within(Promise.all(jobMetrics.map((m) => m.flush())), 2000, []);
    if (outcome === "timeout") {
      log.warn("active jobs outlived the grace period; handing them back");
      await flushMetrics();
      process.exit(0);
    }
    await closeSmsGateways();
    await flushMetrics();
    await ctx.redis.quit().catch(() => undefined);
    await disconnectMongo();
    process.exit(0);
  };
  // The grace period for active jobs, then at most 5 s to close the connections.
  stopOnSignals(shutdown, config.WORKER_SHUTDOWN_GRACE_MS + 5_000, log);
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, "workers failed to start");
  process.exit(1);
});
