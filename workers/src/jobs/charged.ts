/**
 * The life of a charged job (hold → settle → release): re-parse the payload, run the handler,
 * settle the hold on success, release it exactly once on the final failure, tell the user, and
 * always rethrow so BullMQ's retries and backoff keep working (STYLE rule 6).
 */
import { UnrecoverableError, type Job, type Processor } from "bullmq";
import {
  JOB_FAILURE_TEXT,
  jobFailureReason,
  jobSchemas,
  parseJobFailure,
  type ChargedJobBase,
  type ChargedQueueName,
  type JobFailureCode,
} from "@storefront/shared";
import {
  createLogger,
  createRedis,
  OutageLog,
  LedgerEntry,
  loadConfigOrExit,
  providerBackoff,
  Pusher,
  releaseHold,
  settleHold,
  type Config,
  type Logger,
} from "@storefront/shared/server";
import type { Redis } from "ioredis";
import { isProviderError, type ProviderError } from "../providers/errors";

/** What processors need from the worker process, built once (main.ts or a test sets it). */
export interface WorkerContext {
  config: Config;
  redis: Redis;
  pusher: Pusher;
  log: Logger;
}

let current: WorkerContext | undefined;

/** The process's worker context, built from the environment on first use. */
export function workerContext(): WorkerContext {
  if (!current) {
    const config = loadConfigOrExit();
    const log = createLogger("workers", config.LOG_LEVEL);
    const redis = createRedis(config.REDIS_URL, {}, new OutageLog(log, "redis"));
    current = { config, redis, pusher: new Pusher(redis), log };
  }
  return current;
}

export function setWorkerContext(ctx: WorkerContext): void {
  current = ctx;
}

/**
 * A failure's detail for logs, the admin view and the video record: the message (without the
 * "[code]" of a final failure), never a stack.
 */
export function userFacingReason(error: unknown): string {
  if (error instanceof Error && error.message) return parseJobFailure(error.message).detail.slice(0, 300);
  return "The job failed";
}

/** True when BullMQ will not try this job again after this error. */
export function isFinalFailure(error: unknown, job: Job): boolean {
  if (error instanceof UnrecoverableError || (error as Error | undefined)?.name === "UnrecoverableError") return true;
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/** Queues whose HTTP call waits for the job (chat, Doctor, SMS AI, images): their retries are time-boxed. */
const WAITED_ON: ReadonlySet<ChargedQueueName> = new Set(["chat", "image"]);

function permanent(error: ProviderError): UnrecoverableError {
  const final = new UnrecoverableError(error.message);
  final.cause = error;
  return final;
}

/**
 * Permanent provider errors (bad prompt, refusal, malformed reply) must not be retried. On a
 * waited-on queue, neither is a retry that would start after AI_RETRY_BUDGET_MS from the request
 * (a provider that keeps refusing, or asks to wait longer with Retry-After): the subscriber gets
 * an answer and a refund now instead of waiting out the whole backoff.
 */
function classify(error: unknown, queue: ChargedQueueName, job: Job, budgetMs: number): unknown {
  if (!isProviderError(error)) return error;
  if (!error.retryable) return permanent(error);
  if (WAITED_ON.has(queue) && typeof job.timestamp === "number") {
    const nextTryAt = Date.now() + Number(providerBackoff(job.attemptsMade + 1, "provider", error, job));
    if (nextTryAt - job.timestamp > budgetMs) return permanent(error);
  }
  return error;
}

/** The subscriber-facing code of a final failure; the detail goes to the logs and failedReason only. */
export function failureCode(error: unknown): JobFailureCode {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const provider = isProviderError(error) ? error : isProviderError(cause) ? cause : undefined;
  if (!provider) return "job_failed";
  if (provider.status === 429) return "ai_busy";
  // The provider refused this request itself (bad or disallowed input); anything else is on its side or ours.
  if (provider.status === 400 || provider.status === 422) return "ai_refused";
  return "ai_unavailable";
}

/**
 * A BullMQ processor for a charged queue. The handler's return value is the job's result, pushed
 * as "job:completed" and read by the HTTP call that waits for it.
 */
export function chargedProcessor<T extends ChargedJobBase>(
  queue: ChargedQueueName,
  handler: (data: T, job: Job) => Promise<unknown>,
): Processor {
  return async (job: Job) => {
    const ctx = workerContext();
    const jobId = job.id ?? "";
    const parsed = jobSchemas[queue].safeParse(job.data);
    const base = job.data as Partial<ChargedJobBase>;
    const log = ctx.log.child({ queue, jobId, requestId: base.requestId, attempt: job.attemptsMade + 1 });
    log.info({ name: job.name }, "job started");
    try {
      if (!parsed.success) throw new UnrecoverableError(`invalid job payload: ${parsed.error.issues[0]?.message ?? "invalid"}`);
      const data = parsed.data as T;
      await assertStillHeld(data.holdKey);
      const result = await handler(data, job);
      await settleHold(data.holdKey);
      ctx.pusher.toUser(data.userId, "job:completed", { jobId, queue, result });
      log.info("job completed");
      return result;
    } catch (raw) {
      const error = classify(raw, queue, job, ctx.config.AI_RETRY_BUDGET_MS);
      if (isFinalFailure(error, job)) {
        const code = failureCode(error);
        const detail = userFacingReason(error);
        // If the refund itself cannot be written now, the hold sweeper releases it later.
        await failFinally(ctx, queue, jobId, base, code, detail, log).catch((refundError: unknown) =>
          log.error({ err: refundError }, "releasing the hold failed; the sweeper will release it"),
        );
        // failedReason keeps the detail for the admin view; the API answers with the code only.
        const final = new UnrecoverableError(jobFailureReason(code, detail));
        final.cause = raw;
        throw final;
      }
      log.warn({ err: raw }, "job attempt failed; BullMQ will retry");
      throw error;
    }
  };
}

/**
 * A hold already released (a refund went out, e.g. by the sweeper) means the job must not run:
 * the user would get work they were refunded for.
 */
async function assertStillHeld(holdKey: string): Promise<void> {
  const entry = await LedgerEntry.findOne({ key: holdKey, kind: "hold" }, { holdState: 1, state: 1 }).lean<{
    holdState: string | null;
    state: string;
  }>();
  if (!entry || entry.state !== "applied") throw new UnrecoverableError("This request was not charged");
  if (entry.holdState === "released" || entry.holdState === "releasing") {
    throw new UnrecoverableError("This request was cancelled and refunded");
  }
}

async function failFinally(
  ctx: WorkerContext,
  queue: ChargedQueueName,
  jobId: string,
  base: Partial<ChargedJobBase>,
  code: JobFailureCode,
  detail: string,
  log: Logger,
): Promise<void> {
  log.warn({ code, reason: detail }, "job failed for good; releasing its hold");
  if (!base.holdKey || !base.userId) return;
  const refund = await releaseHold(base.holdKey, `job failed: ${code}`, "worker");
  ctx.pusher.toUser(base.userId, "job:failed", {
    jobId,
    queue,
    code,
    error: JOB_FAILURE_TEXT[code],
    refunded: refund?.amount ?? 0,
  });
  if (refund?.balanceAfter != null) {
    ctx.pusher.toUser(base.userId, "wallet:updated", { coins: refund.balanceAfter, reason: "release" });
  }
}
