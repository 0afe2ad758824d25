/**
 * The process-wide wait for job results (STYLE rule 7): one QueueEvents listener per queue,
 * shared by every HTTP request that answers with a job's result. Built once in main.ts and held
 * by AppContext; services reach it through services/jobs.ts waitForJob.
 */
import { QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import {
  JOB_FAILURE_TEXT,
  jobResults,
  parseJobFailure,
  type ChargedQueueName,
  type JobResult,
  type QueueName,
} from "@storefront/shared";
import { isConnectionError, type Logger, type Queues } from "@storefront/shared/server";
import { AppError, notFound, unavailable } from "./errors";

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Registered {
  entry: Waiting;
  result: Promise<unknown>;
  forget(): void;
}

/** A wait registered before its job was added (JobWaiter.watch). */
export interface JobWatch<Q extends ChargedQueueName> {
  /** The job's result, parsed; AppError with its failure, or 504 after the timeout. */
  result(timeoutMs?: number): Promise<JobResult<Q>>;
  /** Stops watching (the job was not added after all). */
  cancel(): void;
}

/**
 * The error a caller sees when its job finally failed: the code the worker put in its reason and
 * that code's neutral text (the provider's detail stays in failedReason and the logs).
 */
export function jobFailed(jobId: string, reason: string): AppError {
  const { code } = parseJobFailure(reason);
  return new AppError(502, code, JOB_FAILURE_TEXT[code], { jobId, refunded: true });
}

/**
 * A completed job's return value read with its queue's result schema (jobResults). One that does
 * not parse (a worker of another version, a job completed by anything but our workers) is answered
 * as the job's failure, 502 job_failed with its neutral text, never passed on as a wrong value.
 */
function jobResultOf<Q extends ChargedQueueName>(queue: Q, jobId: string, value: unknown, log: Logger): JobResult<Q> {
  const parsed = jobResults[queue].safeParse(value);
  // TypeScript cannot tie the schema picked by a generic key to JobResult<Q>; the map makes it so.
  if (parsed.success) return parsed.data as JobResult<Q>;
  log.error({ queue, jobId, issues: parsed.error.issues.slice(0, 3) }, "a job's result does not match its queue's schema");
  throw new AppError(502, "job_failed", JOB_FAILURE_TEXT.job_failed, { jobId, refunded: false });
}

/**
 * One QueueEvents listener per queue for the whole process; each HTTP request waiting for a job
 * registers a callback by job id instead of opening its own listener or polling.
 */
export class JobWaiter {
  private readonly listeners = new Map<QueueName, Promise<QueueEvents>>();
  private readonly waiting = new Map<string, Set<Waiting>>();

  constructor(
    private readonly queues: Queues,
    private readonly connect: () => Redis,
    private readonly log: Logger,
    private readonly defaultTimeoutMs: number,
  ) {}

  private listener(queue: QueueName): Promise<QueueEvents> {
    let listener = this.listeners.get(queue);
    if (!listener) {
      listener = this.listen(queue);
      this.listeners.set(queue, listener);
      listener.catch(() => this.listeners.delete(queue));
    }
    return listener;
  }

  private async listen(queue: QueueName): Promise<QueueEvents> {
    const { prefix } = this.queues[queue].opts;
    // Read on from the stream's newest event now, not from "$" when the first blocking read reaches
    // Redis: that read comes after the listener reports ready, and a job finishing in between
    // would never be heard of (its waiter, which read the job as still running, would time out).
    const connection = this.connect();
    const [newest] = await connection.xrevrange(this.queues[queue].keys.events!, "+", "-", "COUNT", 1).catch((error: unknown) => {
      // The next wait tries again with a connection of its own: this one is not left open.
      connection.disconnect();
      throw error;
    });
    const events = new QueueEvents(queue, {
      connection,
      lastEventId: newest?.[0] ?? "0-0",
      ...(prefix ? { prefix } : {}),
    });
    events.on("completed", ({ jobId, returnvalue }) => this.settle(queue, jobId, (w) => w.resolve(returnvalue)));
    events.on("failed", ({ jobId, failedReason }) => this.settle(queue, jobId, (w) => w.reject(jobFailed(jobId, failedReason))));
    // Connection errors are the connection's outage, logged once by its own handler.
    events.on("error", (error) => {
      if (!isConnectionError(error)) this.log.error({ err: error, queue }, "queue events listener error");
    });
    await events.waitUntilReady();
    return events;
  }

  private settle(queue: QueueName, jobId: string, fn: (w: Waiting) => void): void {
    const key = `${queue}/${jobId}`;
    const set = this.waiting.get(key);
    if (!set) return;
    this.waiting.delete(key);
    for (const w of set) fn(w);
  }

  /** Registers a waiter for a job's outcome; `forget` removes it. */
  private register(queue: QueueName, jobId: string): Registered {
    const key = `${queue}/${jobId}`;
    let entry!: Waiting;
    const result = new Promise<unknown>((resolve, reject) => {
      entry = { resolve, reject };
    });
    // The job may fail before anyone awaits the result; the race in `outcome` reports it.
    result.catch(() => undefined);
    const set = this.waiting.get(key) ?? new Set<Waiting>();
    set.add(entry);
    this.waiting.set(key, set);
    const forget = () => {
      set.delete(entry);
      if (set.size === 0 && this.waiting.get(key) === set) this.waiting.delete(key);
    };
    return { entry, result, forget };
  }

  /** The registered outcome, or 504 after the timeout; the waiter is forgotten either way. */
  private async outcome(registered: Registered, jobId: string, timeoutMs: number): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new AppError(504, "timeout", "The reply is taking longer than expected; it will arrive when ready.", { jobId })),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([registered.result, expired]);
    } finally {
      clearTimeout(timer);
      registered.forget();
    }
  }

  /** Resolves with the job's result, parsed; AppError with the failure reason, or 504 after the timeout. */
  async wait<Q extends ChargedQueueName>(queue: Q, jobId: string, timeoutMs = this.defaultTimeoutMs): Promise<JobResult<Q>> {
    await this.listener(queue);
    const registered = this.register(queue, jobId);
    try {
      // The job may have finished before we registered: read its state once, after registering.
      // Finished states are final, so the job read after them carries its result.
      const state = await this.queues[queue].getJobState(jobId);
      if (state === "unknown") throw notFound("Job not found");
      if (state === "completed" || state === "failed") {
        const job = await this.queues[queue].getJob(jobId);
        if (state === "completed") registered.entry.resolve(job?.returnvalue);
        else registered.entry.reject(jobFailed(jobId, job?.failedReason ?? ""));
      }
    } catch (error) {
      // Not left registered for an event that a finished (or unknown) job will never send.
      registered.forget();
      throw error;
    }
    return jobResultOf(queue, jobId, await this.outcome(registered, jobId, timeoutMs), this.log);
  }

  /**
   * Registers for the outcome of a job that is not added yet: it cannot finish before it exists,
   * so unlike `wait` no read of its state is needed. Call `cancel` if the job is never added.
   */
  async watch<Q extends ChargedQueueName>(queue: Q, jobId: string): Promise<JobWatch<Q>> {
    await this.listener(queue);
    const registered = this.register(queue, jobId);
    return {
      result: async (timeoutMs = this.defaultTimeoutMs) =>
        jobResultOf(queue, jobId, await this.outcome(registered, jobId, timeoutMs), this.log),
      cancel: registered.forget,
    };
  }

  /** Answers every call of this process waiting for `jobId` of `queue` with `error` now (the job itself is left as it is). */
  refuse(queue: QueueName, jobId: string, error: Error): void {
    this.settle(queue, jobId, (w) => w.reject(error));
  }

  async close(): Promise<void> {
    const listeners = await Promise.allSettled(this.listeners.values());
    await Promise.all(listeners.map((l) => (l.status === "fulfilled" ? l.value.close() : undefined)));
    for (const set of this.waiting.values()) for (const w of set) w.reject(unavailable("The server is shutting down"));
    this.waiting.clear();
  }
}
