import type { Redis } from "ioredis";
import type { Config, Logger, Pusher, Queues, Storage } from "@storefront/shared/server";
import type { JobWaiter } from "./job-waiter";

/** What routes and services need from the running process, built once in main.ts. */
export interface AppContext {
  config: Config;
  redis: Redis;
  pusher: Pusher;
  storage: Storage;
  log: Logger;
  /** One BullMQ queue per kind of work (jobs are added through services/jobs.ts acceptJob). */
  queues: Queues;
  /** The shared per-queue completion listener that waitForJob uses. */
  jobs: JobWaiter;
  /** Names of queues that have no live worker, for /api/ready. */
  missingWorkers(): Promise<string[]>;
}
