/**
 * How the API hands work to the workers (DESIGN §1): price is decided by the caller, the cost is
 * held on the wallet, then the job is added under an id derived from the hold, so a retried
 * request never makes a second job or a second charge. Calls that answer with the result then
 * wait on one shared QueueEvents listener per queue (STYLE rule 7).
 */
import { QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import { jobSchemas, type Feature, type HeldQueueName, type JobData, type JobPayload, type QueueName } from "@storefront/shared";
import {
  chargedJobOptions,
  hold,
  jobIdForHold,
  LedgerEntry,
  releaseHold,
  User,
  type Logger,
  type Queues,
} from "@storefront/shared/server";
import type { AppContext } from "../context";
import { AppError, notFound, unavailable } from "../errors";
import { requestKey } from "./wallet";

export interface AcceptJobInput<Q extends HeldQueueName = HeldQueueName> {
  queue: Q;
  /** BullMQ job name, for queues with more than one kind of job. */
  name: string;
  userId: string;
  feature: Feature;
  cost: number;
  /** The client's Idempotency-Key header, when it sent one. */
  idempotencyKey: string | undefined;
  /** Label of the charge in the ledger (SPEC §7: a label plus the first 50 characters). */
  details: string;
  /** The queue's own payload fields (its schema in jobSchemas); the hold's fields are added here. */
  payload: JobPayload<Q>;
  requestId?: string;
}

export interface AcceptedJob {
  jobId: string;
  holdKey: string;
  remainingCoins: number;
  /** True when this was a retry of a request already accepted (no new charge, no new job). */
  replayed: boolean;
}

/**
 * Holds the cost, then adds the job. InsufficientCoinsError (402) when short, and then no job is
 * added; if adding fails the hold is released at once.
 */
export async function acceptJob<Q extends HeldQueueName>(ctx: AppContext, input: AcceptJobInput<Q>): Promise<AcceptedJob> {
  const holdKey = requestKey(`job:${input.queue}`, input.userId, input.idempotencyKey);
  const jobId = jobIdForHold(input.queue, holdKey);
  // TypeScript cannot tie the schema picked by a generic key to JobData<Q>; the map makes it so.
  const data = jobSchemas[input.queue].parse({
    ...input.payload,
    userId: input.userId,
    holdKey,
    ...(input.requestId ? { requestId: input.requestId } : {}),
  }) as JobData<Q>;

  const held = await hold({
    userId: input.userId,
    coins: input.cost,
    key: holdKey,
    feature: input.feature,
    details: input.details.slice(0, 200),
    queue: input.queue,
    jobId,
  });
  if (held.replayed) {
    // A retried request: the first one added the job (or is adding it; BullMQ ignores a
    // duplicate id). A hold already settled or released means the job ran: never add it again.
    const user = await User.findById(input.userId, { coins: 1 }).lean<{ coins: number }>();
    const stillHeld = await isHeld(holdKey);
    if (stillHeld) await addJob(ctx, input, jobId, data, holdKey);
    return { jobId, holdKey, remainingCoins: user?.coins ?? held.balanceAfter ?? 0, replayed: true };
  }
  const remainingCoins = held.balanceAfter ?? 0;
  ctx.pusher.toUser(input.userId, "wallet:updated", { coins: remainingCoins, reason: `hold:${input.feature}` });
  await addJob(ctx, input, jobId, data, holdKey);
  return { jobId, holdKey, remainingCoins, replayed: false };
}

async function isHeld(holdKey: string): Promise<boolean> {
  return Boolean(await LedgerEntry.exists({ key: holdKey, holdState: "held" }));
}

async function addJob<Q extends HeldQueueName>(
  ctx: AppContext,
  input: AcceptJobInput<Q>,
  jobId: string,
  data: JobData<Q>,
  holdKey: string,
): Promise<void> {
  try {
    await ctx.queues[input.queue].add(input.name, data, chargedJobOptions(ctx.config, jobId));
  } catch (error) {
    ctx.log.error(
      { err: error, queue: input.queue, jobId, requestId: input.requestId },
      "adding the job failed; releasing its hold",
    );
    const refund = await releaseHold(holdKey, "the job could not be queued", "api");
    if (refund?.balanceAfter != null) {
      ctx.pusher.toUser(input.userId, "wallet:updated", { coins: refund.balanceAfter, reason: "release" });
    }
    throw unavailable("The service is busy. Please try again.");
  }
}

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** The error a caller sees when its job finally failed: the worker's reason, shown to users. */
export function jobFailed(jobId: string, reason: string): AppError {
  return new AppError(502, "unavailable", reason || "The job failed", { jobId, refunded: true });
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
    const events = new QueueEvents(queue, { connection: this.connect(), ...(prefix ? { prefix } : {}) });
    events.on("completed", ({ jobId, returnvalue }) => this.settle(queue, jobId, (w) => w.resolve(returnvalue)));
    events.on("failed", ({ jobId, failedReason }) => this.settle(queue, jobId, (w) => w.reject(jobFailed(jobId, failedReason))));
    events.on("error", (error) => this.log.error({ err: error, queue }, "queue events listener error"));
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

  /** Resolves with the job's return value; AppError with the failure reason, or 504 after the timeout. */
  async wait(queue: QueueName, jobId: string, timeoutMs = this.defaultTimeoutMs): Promise<unknown> {
    await this.listener(queue);
    const key = `${queue}/${jobId}`;
    let entry!: Waiting;
    const result = new Promise<unknown>((resolve, reject) => {
      entry = { resolve, reject };
    });
    // The job may fail while we still read its state below; the race further down reports it.
    result.catch(() => undefined);
    const set = this.waiting.get(key) ?? new Set<Waiting>();
    set.add(entry);
    this.waiting.set(key, set);
    const forget = () => {
      set.delete(entry);
      if (set.size === 0 && this.waiting.get(key) === set) this.waiting.delete(key);
    };

    // The job may have finished before we registered: read its state once, after registering.
    // Finished states are final, so the job read after them carries its result.
    const state = await this.queues[queue].getJobState(jobId);
    if (state === "unknown") {
      forget();
      throw notFound("Job not found");
    }
    if (state === "completed" || state === "failed") {
      const job = await this.queues[queue].getJob(jobId);
      if (state === "completed") entry.resolve(job?.returnvalue);
      else entry.reject(jobFailed(jobId, job?.failedReason ?? ""));
    }

    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new AppError(504, "timeout", "The reply is taking longer than expected; it will arrive when ready.", { jobId })),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([result, expired]);
    } finally {
      clearTimeout(timer);
      forget();
    }
  }

  async close(): Promise<void> {
    const listeners = await Promise.allSettled(this.listeners.values());
    await Promise.all(listeners.map((l) => (l.status === "fulfilled" ? l.value.close() : undefined)));
    for (const set of this.waiting.values()) for (const w of set) w.reject(unavailable("The server is shutting down"));
    this.waiting.clear();
  }
}

/** Waits for a job added by acceptJob (bounded by JOB_WAIT_TIMEOUT_MS unless given). */
export function waitForJob(ctx: AppContext, queue: QueueName, jobId: string, timeoutMs?: number): Promise<unknown> {
  return ctx.jobs.wait(queue, jobId, timeoutMs);
}
