/**
 * Scheduled work on the "maintenance" queue, run by BullMQ job schedulers (one per entry, upserted
 * at start-up by every worker process serving that queue; BullMQ keeps one schedule per name).
 * Add an entry here to add a schedule.
 */
import { UnrecoverableError, type Processor } from "bullmq";
import { reconcileLedger, type Config } from "@storefront/shared/server";
import type { WorkerContext } from "../context";
import { createScheduleContext, type ScheduleContext } from "./context";
import { sweepHolds } from "./hold-sweeper";
import { pushQueueStats, QUEUE_STATS_EVERY_MS } from "./queue-stats";
import { renewDueAssignments } from "./renewals";
import { operatorBilling } from "@storefront/shared/server";

export type { ScheduleContext } from "./context";

export interface Schedule {
  /** Job scheduler id and job name on the maintenance queue. */
  name: string;
  /** Interval between runs, fixed or read from the config. */
  everyMs: number | ((config: Config) => number);
  run(ctx: ScheduleContext): Promise<unknown>;
}

export const schedules: Schedule[] = [
  {
    name: "ledger-reconcile",
    everyMs: (c) => c.LEDGER_RECONCILE_INTERVAL_MS,
    run: () => reconcileLedger(),
  },
  {
    name: "hold-sweep",
    everyMs: (c) => c.HOLD_SWEEP_INTERVAL_MS,
    run: (ctx) => sweepHolds(ctx),
  },
  {
    name: "package-renewal",
    everyMs: 60_000,
    run: (ctx) => renewDueAssignments({ billing: operatorBilling(), pusher: ctx.pusher, log: ctx.log }),
  },
  { name: "queue-stats", everyMs: QUEUE_STATS_EVERY_MS, run: (ctx) => pushQueueStats(ctx) },
];

export function intervalOf(schedule: Schedule, config: Config): number {
  return typeof schedule.everyMs === "number" ? schedule.everyMs : schedule.everyMs(config);
}

/** Runs the schedule a maintenance job names; the result is kept on the job for inspection. */
export function maintenanceProcessor(workerCtx: WorkerContext): Processor {
  let ctx: ScheduleContext | undefined;
  return async (job) => {
    const schedule = schedules.find((s) => s.name === job.name);
    if (!schedule) throw new UnrecoverableError(`no schedule named ${job.name}`);
    ctx ??= createScheduleContext(workerCtx);
    const result = await schedule.run(ctx);
    ctx.log.debug({ schedule: schedule.name, result }, "schedule ran");
    return result;
  };
}
