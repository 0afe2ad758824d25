/**
 * How the API hands work to the workers (DESIGN §1): price is decided by the caller, the cost is
 * held on the wallet, then the job is added under an id derived from the hold, so a retried
 * request never makes a second job or a second charge. Calls that answer with the result then
 * wait on one shared QueueEvents listener per queue (job-waiter.ts, STYLE rule 7).
 */
import { jobSchemas, type Feature, type HeldQueueName, type JobData, type JobPayload, type JobResult } from "@storefront/shared";
import type { Queue } from "bullmq";
import {
  chargedJobOptions,
  hold,
  jobIdForHold,
  LedgerEntry,
  releaseHold,
  User,
  type AppliedEntry,
} from "@storefront/shared/server";
import type { AppContext } from "../context";
import { unavailable } from "../errors";
import { assertLiveWorker } from "./queue-health";
import { requestKey } from "./wallet";
import { fileJobs } from "./conversation-costs";
import { noticeBalance } from "./low-balance";
import { dailyCapOf } from "./spending";

/** Who asks for a paid job, and how to recognise a retry of the request. */
export interface JobCall {
  userId: string;
  /** The client's Idempotency-Key header, when it sent one. */
  idempotencyKey: string | undefined;
  requestId?: string;
  /** When the HTTP request arrived (ms since the epoch); now when not given. */
  arrivedAt?: number;
}

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
  /** The chat conversation the job belongs to (conversation-costs.ts counts its cost). */
  conversationId?: string | null;
  /** The queue's own payload fields (its schema in jobSchemas); the hold's fields are added here. */
  payload: JobPayload<Q>;
  requestId?: string;
  /** When the HTTP request arrived (ms since the epoch): the retry budget of a waited-on job counts from it. */
  arrivedAt?: number;
  /**
   * Runs once the cost is held and before the job can reach a worker (again on a retry whose
   * hold is still held), to record what the job works on; if it throws, the hold is released.
   */
  beforeAdd?: (jobId: string) => Promise<void>;
}

export interface AcceptedJob {
  jobId: string;
  holdKey: string;
  remainingCoins: number;
  /** True when this was a retry of a request already accepted (no new charge, no new job). */
  replayed: boolean;
}

export interface JobKeys {
  holdKey: string;
  jobId: string;
}

/** The hold's key and the job's id of a request (a fresh pair when the client sent no Idempotency-Key). */
function jobKeysOf(input: Pick<AcceptJobInput, "queue" | "userId" | "idempotencyKey">): JobKeys {
  const holdKey = requestKey(`job:${input.queue}`, input.userId, input.idempotencyKey);
  return { holdKey, jobId: jobIdForHold(input.queue, holdKey) };
}

/**
 * Holds the cost, then adds the job. InsufficientCoinsError (402) when short, and then no job is
 * added; if adding fails the hold is released at once.
 */
export async function acceptJob<Q extends HeldQueueName>(
  ctx: AppContext,
  input: AcceptJobInput<Q>,
  { holdKey, jobId } = jobKeysOf(input),
): Promise<AcceptedJob> {
  // TypeScript cannot tie the schema picked by a generic key to JobData<Q>; the map makes it so.
  const data = jobSchemas[input.queue].parse({
    ...input.payload,
    userId: input.userId,
    holdKey,
    ...(input.requestId ? { requestId: input.requestId } : {}),
    arrivedAt: input.arrivedAt ?? Date.now(),
  }) as JobData<Q>;

  await assertLiveWorker(ctx.queues[input.queue], ctx.redis);
  const held = await hold({
    dailyCap: await dailyCapOf(input.userId),
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
  const language = "language" in data ? data.language : undefined;
  await noticeBalance(ctx, input.userId, remainingCoins, { language, alerted: held.lowBalanceAlerted });
  // The job is filed under its conversation while it is queued: the filing only counts its cost.
  const filed = input.conversationId
    ? fileJobs(input.userId, [jobId], input.conversationId).catch((error: unknown) =>
        ctx.log.warn({ err: error, jobId }, "the job was not filed under its conversation"),
      )
    : undefined;
  const queued = Promise.all([addJob(ctx, input, jobId, data, holdKey), filed]);
  // The balance push waits for the add to be on its way: the job's start does not wait for the push.
  setImmediate(() =>
    ctx.pusher.toUser(input.userId, "wallet:updated", { coins: remainingCoins, reason: `hold:${input.feature}` }),
  );
  await queued;
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
    await input.beforeAdd?.(jobId);
    await ctx.queues[input.queue].add(input.name, data, chargedJobOptions(ctx.config, jobId));
  } catch (error) {
    ctx.log.error(
      { err: error, queue: input.queue, jobId, requestId: input.requestId },
      "adding the job failed; releasing its hold",
    );
    const refund = await releaseUnqueued(ctx.queues[input.queue], jobId, holdKey).catch((releaseError: unknown) => {
      ctx.log.warn({ err: releaseError, jobId }, "the job may be queued or running; its hold is left to it and to the sweeper");
      return null;
    });
    if (refund?.balanceAfter != null) {
      ctx.pusher.toUser(input.userId, "wallet:updated", { coins: refund.balanceAfter, reason: "release" });
    }
    throw unavailable("The service is busy. Please try again.");
  }
}

/**
 * After an add reported failed. Redis may have run the add and lost only its answer, so the job
 * can be in the queue all the same: the hold is released only once the job is certainly not there
 * (never added, or taken out now), so that the caller's "not queued, refunded" is true: a job left in
 * the queue with its hold released would reach a worker, which reads the hold and refuses it. Rejects,
 * leaving the hold, when the job cannot be taken out (a worker holds it, or Redis is unreachable):
 * the job then settles or releases it, or the hold sweeper does.
 */
export async function releaseUnqueued(queue: Queue, jobId: string, holdKey: string): Promise<AppliedEntry | null> {
  const job = await queue.getJob(jobId);
  if (job) await job.remove();
  return releaseHold(holdKey, "the job could not be queued", "api");
}

/** Waits for a job added by acceptJob (bounded by JOB_WAIT_TIMEOUT_MS unless given). */
export function waitForJob<Q extends HeldQueueName>(
  ctx: AppContext,
  queue: Q,
  jobId: string,
  timeoutMs?: number,
): Promise<JobResult<Q>> {
  return ctx.jobs.wait(queue, jobId, timeoutMs);
}

/**
 * acceptJob, then the job's result, for calls that answer with it. The wait is registered before
 * the job is added, so its completion cannot pass unheard and its state need not be read (one
 * Redis round trip less per call); a retried request, whose job may have finished long before,
 * reads it as waitForJob does.
 */
export async function runJob<Q extends HeldQueueName>(
  ctx: AppContext,
  input: AcceptJobInput<Q>,
  timeoutMs?: number,
): Promise<{ accepted: AcceptedJob; result: JobResult<Q> }> {
  const keys = jobKeysOf(input);
  const watch = await ctx.jobs.watch(input.queue, keys.jobId);
  try {
    const accepted = await acceptJob(ctx, input, keys);
    const result = accepted.replayed
      ? await waitForJob(ctx, input.queue, accepted.jobId, timeoutMs)
      : await watch.result(timeoutMs);
    return { accepted, result };
  } finally {
    watch.cancel();
  }
}
