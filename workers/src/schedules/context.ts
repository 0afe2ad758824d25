import { createQueues, type Queues } from "@storefront/shared/server";
import type { WorkerContext } from "../context";

/** What a scheduled job needs: the worker context plus the queues it inspects. */
export interface ScheduleContext extends WorkerContext {
  queues: Queues;
}

export function createScheduleContext(ctx: WorkerContext): ScheduleContext {
  return { ...ctx, queues: createQueues(ctx.redis) };
}
