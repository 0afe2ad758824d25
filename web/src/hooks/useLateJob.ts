/**
 * The end of a job a screen stopped waiting for without it: its call answered 504 (the job carries
 * on) or 503 with `queued: true` (no worker answered; the coins went back and the job stays queued,
 * charged when it runs). Its end is then told only by push: "job:completed" with the result the
 * call would have answered, or "job:failed" (a rerun refused, a late failure), given to `failed`
 * as the error the call would have answered.
 *
 * The jobs waited for are kept here, outside the screen, so a result is not lost when the screen
 * that asked was left: the screen's `completed` takes it while that screen is open, its `away`
 * (which must not touch the screen's state) when it is not. Each job's end is taken once, by one of
 * them (a second push of the same end is ignored), in the tab that asked.
 */
import { useEffect, useState } from "react";
import type { HeldQueueName, JobResult } from "@storefront/shared";
import { JobFailedError, pendingJobOf } from "../api/errors";
import { onServerEvent } from "../socket";

export interface LateJobHandlers<Q extends HeldQueueName, C> {
  /** The result, on the open screen that asked; `context` is what the screen gave with the job. */
  completed: (result: JobResult<Q>, context: C, jobId: string) => void;
  /** The failure, on the open screen that asked. */
  failed: (error: JobFailedError, context: C) => void;
  /** The result once the screen that asked was left (filing it where the user will find it). */
  away?: (result: JobResult<Q>, context: C, jobId: string) => void;
}

interface Waiting {
  queue: HeldQueueName;
  context: unknown;
  /** The asking screen's handlers while it is open, null once it was left. */
  screen: { current: LateJobHandlers<HeldQueueName, unknown> | null };
  away?: (result: never, context: unknown, jobId: string) => void;
}

const waiting = new Map<string, Waiting>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  onServerEvent("job:completed", (event) => {
    const job = waiting.get(event.jobId);
    if (!job || job.queue !== event.queue) return;
    waiting.delete(event.jobId);
    const result = event.result as never;
    if (job.screen.current) job.screen.current.completed(result, job.context, event.jobId);
    else job.away?.(result, job.context, event.jobId);
  });
  onServerEvent("job:failed", (event) => {
    const job = waiting.get(event.jobId);
    if (!job) return;
    waiting.delete(event.jobId);
    job.screen.current?.failed(new JobFailedError(event), job.context);
  });
}

/**
 * Returns `watch(error, context)`: call it with a failed call's error; a job it leaves pending is
 * waited for, with `context` (what the screen needs to show or file its result).
 */
export function useLateJob<Q extends HeldQueueName, C>(
  queue: Q,
  handlers: LateJobHandlers<Q, C>,
): (error: unknown, context: C) => void {
  const [screen] = useState<Waiting["screen"]>(() => ({ current: null }));
  useEffect(() => {
    screen.current = handlers as unknown as LateJobHandlers<HeldQueueName, unknown>;
  });
  useEffect(
    () => () => {
      screen.current = null;
    },
    [screen],
  );
  return (error, context) => {
    const jobId = pendingJobOf(error);
    if (!jobId) return;
    listen();
    waiting.set(jobId, { queue, context, screen, away: handlers.away as Waiting["away"] });
  };
}
