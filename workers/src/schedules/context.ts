import { createQueues, type Queues } from "@storefront/shared/server";
import { workerContext, type WorkerContext } from "../jobs/charged";

/** What a scheduled job needs: the worker context plus the queues it inspects. */
export interface ScheduleContext extends WorkerContext {
  queues: Queues;
}

let current: ScheduleContext | undefined;

export function scheduleContext(): ScheduleContext {
  if (!current) {
    const base = workerContext();
    current = { ...base, queues: createQueues(base.redis) };
  }
  return current;
}
