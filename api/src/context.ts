import type { Redis } from "ioredis";
import type { Config, Logger, Pusher, Storage } from "@storefront/shared/server";

/** What routes and services need from the running process, built once in main.ts. */
export interface AppContext {
  config: Config;
  redis: Redis;
  pusher: Pusher;
  storage: Storage;
  log: Logger;
  /** Names of queues that have no live worker, for /api/ready. */
  missingWorkers(): Promise<string[]>;
}
