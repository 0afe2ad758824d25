import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  closeQueues,
  connectMongo,
  disconnectMongo,
  createLogger,
  createQueues,
  createRedis,
  seedWalletTables,
  startCacheBus,
  stopCacheBus,
  exitOnFatalErrors,
  stopOnSignals,
  loadConfigOrExit,
  localDiskStorage,
  mediaRoot,
  observeSocketServer,
  OutageLog,
  Pusher,
  WebPushSender,
  serveHandedConnections,
  startOperatorBilling,
} from "@storefront/shared/server";
import { createApp } from "./app";
import { indexStoredSessions } from "./middleware/session";
import type { AppContext } from "./context";
import { attachSocketServer } from "./realtime/socket";
import { ensureFirstAdmin, migrateData } from "./services/auth";
import { queuesWithoutLiveWorker } from "./services/queue-health";
import { watchFrozenWorkers } from "./services/frozen-workers";
import { JobWaiter } from "./job-waiter";
import { answerClientErrors } from "./client-errors";

const config = loadConfigOrExit();
const log = createLogger("api", config.LOG_LEVEL);
exitOnFatalErrors(log);

/** A stop that takes longer (Redis or the database gone for good) ends the process regardless. */
const SHUTDOWN_DEADLINE_MS = 5_000;
/** While Redis or the database is down, calls answer 503 within this bound instead of hanging. */
const FAIL_FAST_MS = 1500;

async function main(): Promise<void> {
  startOperatorBilling(config.OPERATOR_BILLING, log);
  await connectMongo(config.MONGODB_URI, { failFastMs: FAIL_FAST_MS, outage: new OutageLog(log, "mongodb") });
  const redisOutage = new OutageLog(log, "redis");
  const redis = createRedis(config.REDIS_URL, { commandTimeout: FAIL_FAST_MS }, redisOutage);
  // Not awaited: the caches serve once subscribed; until then (or while Redis is down) reads go to the database.
  void startCacheBus(redis);
  await seedWalletTables();
  const queues = createQueues(redis);
  // The blocking listener connections keep waiting through an outage (no command timeout).
  const jobs = new JobWaiter(queues, () => createRedis(config.REDIS_URL, {}, redisOutage), log, config.JOB_WAIT_TIMEOUT_MS);
  const ctx: AppContext = {
    config,
    redis,
    pusher: new Pusher(redis, WebPushSender.fromConfig(config, log)),
    storage: localDiskStorage(mediaRoot(config.dataDir)),
    log,
    queues,
    jobs,
    missingWorkers: () => queuesWithoutLiveWorker(queues, redis),
  };
  // Holds of jobs whose queue has no live worker (a frozen one) go back to their users.
  const frozenWorkers = watchFrozenWorkers(ctx);
  await ensureFirstAdmin(config, log);
  await migrateData(config, log);
  // Once per data set; not awaited, so a large session store does not delay the first call.
  indexStoredSessions(redis).then(
    (indexed) => indexed && log.info({ indexed }, "stored sessions added to their users' index"),
    (error: unknown) => log.warn({ err: error }, "indexing stored sessions failed; retried at the next start"),
  );

  const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/dist");
  const server = createServer(createApp(ctx, { webDist }));
  answerClientErrors(server);
  const sockets = attachSocketServer(server, ctx);
  observeSocketServer(sockets.io);
  // With several API processes, npm start keeps the public port and hands their clients over.
  const handover = serveHandedConnections(server);
  // The kernel's queue of connections not accepted yet, as long as it allows (somaxconn; Node's own
  // default is 511): a burst of new clients waits there instead of having its SYNs dropped and resent.
  server.listen({ port: config.PORT, host: config.HOST, backlog: 4096 }, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    log.info({ port, host: config.HOST }, "api listening");
    process.send?.({ type: "listening", port });
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, "shutting down");
    // New clients go to the other API processes from now on.
    handover.stop();
    frozenWorkers.stop();
    const socketsClosed = sockets.close().catch(() => undefined);
    server.closeAllConnections();
    await socketsClosed;
    await jobs.close();
    await closeQueues(queues);
    await stopCacheBus();
    await redis.quit().catch(() => undefined);
    await disconnectMongo();
    process.exit(0);
  };
  stopOnSignals(shutdown, SHUTDOWN_DEADLINE_MS, log);
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, "api failed to start");
  process.exit(1);
});
