/**
 * What processors and schedules need from the worker process, built once in main.ts and passed
 * to them explicitly (as the API passes its AppContext), so a test builds its own.
 */
import {
  createLogger,
  createRedis,
  localDiskStorage,
  mediaRoot,
  OutageLog,
  Pusher,
  type Config,
  type Logger,
  type Storage,
  WebPushSender,
} from "@storefront/shared/server";
import type { Redis } from "ioredis";

export interface WorkerContext {
  config: Config;
  redis: Redis;
  pusher: Pusher;
  log: Logger;
  /** Where image and video files are stored: the same store the API serves them from. */
  storage: Storage;
}

/** The worker process's context, from its loaded config. */
export function createWorkerContext(config: Config): WorkerContext {
  const log = createLogger("workers", config.LOG_LEVEL);
  // An error handler on the connection: an outage is logged once, not once per reconnect attempt.
  const redis = createRedis(config.REDIS_URL, {}, new OutageLog(log, "redis"));
  return {
    config,
    redis,
    pusher: new Pusher(redis, WebPushSender.fromConfig(config, log)),
    log,
    storage: localDiskStorage(mediaRoot(config.dataDir)),
  };
}
