/**
 * The life of a charged job (hold → settle → release): re-parse the payload, run the handler,
 * settle the hold on success, release it exactly once on the final failure, tell the user, and
 * always rethrow so BullMQ's retries and backoff keep working (STYLE rule 6).
 */
import { DelayedError, UnrecoverableError, type Job, type Processor } from "bullmq";
import {
  dailyCapFor,
  JOB_FAILURE_TEXT,
  jobFailureReason,
  jobResults,
  jobSchemas,
  parseJobFailure,
  type ChargedJobBase,
  type HeldQueueName,
  type JobCompletedOf,
  type JobData,
  type JobFailureCode,
  type JobResult,
  type JobResultInput,
  type ServerEvents,
} from "@storefront/shared";
import {
  DailyCapError,
  findHold,
  hold,
  InsufficientCoinsError,
  loadWalletTables,
  providerBackoff,
  releaseHold,
  rerunMarkerKey,
  scrubbedReason,
  settleHold,
  User,
  type Logger,
} from "@storefront/shared/server";
import type { WorkerContext } from "../context";
import { isProviderError, type ProviderError } from "../providers/errors";

/**
 * A failure's detail for logs, the admin view and failedReason: the message (without the
 * "[code]" of a final failure), never a stack.
 */
function userFacingReason(error: unknown): string {
  if (error instanceof Error && error.message) return parseJobFailure(error.message).detail.slice(0, 300);
  return "The job failed";
}

/** True when BullMQ will not try this job again after this error. */
function isFinalFailure(error: unknown, job: Job): boolean {
  if (error instanceof UnrecoverableError || (error as Error | undefined)?.name === "UnrecoverableError") return true;
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/** Queues whose HTTP call waits for the job (chat, Doctor, SMS AI, images): their retries are time-boxed. */
const WAITED_ON: ReadonlySet<HeldQueueName> = new Set(["chat", "image"]);

function permanent(error: ProviderError): UnrecoverableError {
  const final = new UnrecoverableError(error.message);
  final.cause = error;
  return final;
}

/** Kept of a waited-on call's budget for the answer itself: the refund, BullMQ's event, the API's reply. */
const ANSWER_MARGIN_MS = 500;

/**
 * When the caller of a waited-on job (chat, Doctor, SMS AI, images) must have its answer:
 * AI_RETRY_BUDGET_MS after its HTTP request arrived (the job's `arrivedAt`; the job's own time for
 * jobs queued before it was recorded), less the answer's margin. Undefined for other queues.
 */
export function answerDeadline(
  queue: HeldQueueName,
  data: Partial<ChargedJobBase>,
  job: Job,
  budgetMs: number,
): number | undefined {
  if (!WAITED_ON.has(queue)) return undefined;
  const from = data.arrivedAt ?? job.timestamp;
  return typeof from === "number" ? from + budgetMs - ANSWER_MARGIN_MS : undefined;
}

/**
 * Permanent provider errors (bad prompt, refusal, malformed reply) must not be retried. On a
 * waited-on queue, neither is a retry that would not end before the answer's deadline (a provider
 * that keeps refusing, or asks to wait longer with Retry-After): the next try is taken to last as
 * long as this one did (a proxy that answers 429 after its own retries takes seconds), and the
 * subscriber gets an answer and a refund now instead of after the deadline.
 */
function classify(error: unknown, deadline: number | undefined, job: Job, tryMs: number): unknown {
  if (!isProviderError(error)) return error;
  if (!error.retryable) return permanent(error);
  if (deadline !== undefined) {
    const nextTryAt = Date.now() + Number(providerBackoff(job.attemptsMade + 1, "provider", error, job));
    if (nextTryAt + tryMs > deadline) return permanent(error);
  }
  return error;
}

/** A job run again after its hold was released, refused when charged again: its coins or its day's cap ran out meanwhile. */
class RerunRefused extends UnrecoverableError {
  constructor(
    readonly code: "insufficient_coins" | "daily_cap_reached",
    message: string,
    /** The refusal's figures, pushed with job:failed for the subscriber's text. */
    readonly figures: RefusalFigures,
  ) {
    super(message);
  }
}

type RefusalFigures = Pick<ServerEvents["job:failed"], "needed" | "available" | "cap" | "spent">;

/** The subscriber-facing code of a final failure; the detail goes to the logs and failedReason only. */
export function failureCode(error: unknown): JobFailureCode {
  if (error instanceof RerunRefused) return error.code;
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const provider = isProviderError(error) ? error : isProviderError(cause) ? cause : undefined;
  if (!provider) return "job_failed";
  if (provider.status === 429) return "ai_busy";
  // The provider refused this request itself (bad or disallowed input); anything else is on its side or ours.
  if (provider.status === 400 || provider.status === 422) return "ai_refused";
  return "ai_unavailable";
}

/**
 * How long a job's result is kept beside BullMQ's own record of it. A worker that dies after
 * settling the hold but before BullMQ records the completion leaves the job active; another worker
 * takes it over as stalled (within seconds while any worker of the queue runs) and returns this
 * result instead of running the job again. Past it, the job runs again, charged once.
 */
const RESULT_TTL_SECONDS = 3600;
const resultKey = (queue: HeldQueueName, jobId: string) => `job-result:${queue}:${jobId}`;

/**
 * A handler's return value parsed with its queue's result schema, before anything is settled or
 * pushed: a result the API could not read fails the job (refunded), never reaches the subscriber.
 */
function parsedResult<Q extends HeldQueueName>(queue: Q, value: unknown): JobResult<Q> {
  const parsed = jobResults[queue].safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UnrecoverableError(`malformed job result: ${issue?.path.join(".") || "result"}: ${issue?.message ?? "invalid"}`);
  }
  // As for the payload: TypeScript cannot tie the schema picked by a generic key to JobResult<Q>.
  return parsed.data as JobResult<Q>;
}

/** A kept result read back as its queue's result; undefined when it no longer reads so. */
function readKept<Q extends HeldQueueName>(queue: Q, stored: string): JobResult<Q> | undefined {
  try {
    return parsedResult(queue, JSON.parse(stored));
  } catch {
    return undefined;
  }
}

/**
 * The result a run of this job kept before settling: whether one is there (`kept`), and its value
 * (`result`) when it still reads back as its queue's result.
 */
async function keptResult<Q extends HeldQueueName>(
  ctx: WorkerContext,
  queue: Q,
  jobId: string,
): Promise<{ kept: boolean; result: JobResult<Q> | undefined }> {
  const stored = await ctx.redis.get(resultKey(queue, jobId));
  return { kept: stored !== null, result: stored === null ? undefined : readKept(queue, stored) };
}

/**
 * What the run that settled the job made: the result it kept, else what the queue can tell
 * (`finished`); undefined when neither is there (the kept result expired), and the job runs again,
 * charged once. A kept result that is there but no longer reads as its queue's result fails the job,
 * paid and not refunded: running it again would pay the provider twice for one charge.
 */
async function earlierResult<Q extends HeldQueueName>(
  ctx: WorkerContext,
  queue: Q,
  jobId: string,
  finished: () => JobResultInput<Q> | undefined | Promise<JobResultInput<Q> | undefined>,
): Promise<JobResult<Q> | undefined> {
  const { kept, result } = await keptResult(ctx, queue, jobId);
  if (result !== undefined) return result;
  const told = await finished();
  if (told !== undefined) return parsedResult(queue, told);
  if (kept) throw new UnrecoverableError("the settled job's kept result no longer reads as its queue's result");
  return undefined;
}

/** The "job:completed" push of one queue's result. */
const completedPush = <Q extends HeldQueueName>(queue: Q, jobId: string, result: JobResult<Q>): JobCompletedOf<Q> =>
  // TypeScript cannot tie a generic queue to its member of the union; queue and result are of the same Q.
  ({ jobId, queue, result }) as JobCompletedOf<Q>;

/** What a queue adds to the charged life of its jobs. */
export interface ChargedHooks<Q extends HeldQueueName> {
  /** After the hold was settled and "job:completed" pushed. */
  onCompleted?(data: JobData<Q>, result: JobResult<Q>, job: Job): Promise<void>;
  /**
   * Once, after the hold was released for the job's final failure (also when the payload did not
   * parse, hence the partial data), with the failure's detail. Its own failure is logged, never
   * rethrown.
   */
  onFinalFailure?(data: Partial<JobData<Q>>, reason: string, job: Job): Promise<void>;
  /**
   * The result of a run that had already settled its hold when its process died (before BullMQ
   * recorded the completion), when the result that run kept has expired and the queue can tell it
   * without doing the work again. Without it (or when it answers undefined) the job runs again,
   * charged once.
   */
  finishedResult?(data: JobData<Q>, job: Job): JobResultInput<Q> | undefined | Promise<JobResultInput<Q> | undefined>;
}

/**
 * A BullMQ processor for a charged queue. The payload is parsed here, once, with the queue's
 * schema; the handler gets it typed. The handler's return value, parsed with the queue's result
 * schema (jobResults), is the job's result, pushed as "job:completed" and read by the HTTP call
 * that waits for it. A handler that moved its job to the delayed set throws DelayedError: that is
 * neither a success nor a failure.
 */
export function chargedProcessor<Q extends HeldQueueName>(
  ctx: WorkerContext,
  queue: Q,
  handler: (data: JobData<Q>, job: Job, token?: string) => Promise<JobResultInput<Q>>,
  hooks: ChargedHooks<Q> = {},
): Processor {
  return async (job: Job, token?: string) => {
    const triedAt = Date.now();
    const jobId = job.id ?? "";
    const parsed = jobSchemas[queue].safeParse(job.data);
    const base = job.data as Partial<ChargedJobBase>;
    const log = ctx.log.child({ queue, jobId, requestId: base.requestId, attempt: job.attemptsMade + 1 });
    log.info({ name: job.name }, "job started");
    try {
      if (!parsed.success) throw new UnrecoverableError(`invalid job payload: ${parsed.error.issues[0]?.message ?? "invalid"}`);
      // TypeScript cannot tie the schema picked by a generic key to JobData<Q>; the map makes it so.
      const data = parsed.data as JobData<Q>;
      // Every start looks at the hold before any work reaches the user (a chat streams, an image is
      // stored as it is made): a job started before (a retry, a take-over after its worker died, a
      // return from the delayed set) may have been settled or refunded since, and a waiting job's
      // hold is released while no worker of its queue is live (api/src/services/frozen-workers.ts).
      // Such a job ("rerun") is held again before it runs, and refused if the coins are gone.
      const charge: HoldOf = { ctx, queue, jobId, holdKey: data.holdKey, userId: data.userId };
      const state = await heldState(charge);
      if (state === "settled") {
        const earlier = await earlierResult(ctx, queue, jobId, () => hooks.finishedResult?.(data, job));
        if (earlier !== undefined) {
          // The work was done and paid for by a run whose process died before BullMQ heard of it.
          ctx.pusher.toUser(data.userId, "job:completed", completedPush(queue, jobId, earlier));
          log.info("job had completed before a restart; its result is returned again, not made again");
          await hooks.onCompleted?.(data, earlier, job);
          return earlier;
        }
      }
      // A run that kept its result and died before settling: that result is settled and delivered,
      // not made again (its work is done, so a rerun is charged as at the settle, chargeAgain).
      const kept = state === "settled" ? undefined : (await keptResult(ctx, queue, jobId)).result;
      if (state === "rerun" && kept === undefined) await holdAgain(charge, "under the daily cap");
      const result = kept ?? parsedResult(queue, await handler(data, job, token));
      // Kept before the settle, so a redelivery after a death past the settle returns it as it was.
      // Best effort: Redis refusing the write (out of memory, read-only) must not fail work that
      // was done; without the kept copy a redelivery runs the job again, charged once.
      if (kept === undefined)
        await ctx.redis
          .set(resultKey(queue, jobId), JSON.stringify(result), "EX", RESULT_TTL_SECONDS)
          .catch((err: unknown) => log.warn({ err }, "job result not kept for a redelivery"));
      // Not settled: refunded while the work ran (released while no worker of the queue was live, or
      // otherwise), or settled by another run of the same job whose lock had lapsed (settleLate).
      if (!(await settleHold(data.holdKey))) await settleLate(charge);
      ctx.pusher.toUser(data.userId, "job:completed", completedPush(queue, jobId, result));
      log.info("job completed");
      await hooks.onCompleted?.(data, result, job);
      return result;
    } catch (raw) {
      if (raw instanceof DelayedError) throw raw;
      const deadline = answerDeadline(queue, base, job, ctx.config.AI_RETRY_BUDGET_MS);
      const error = classify(raw, deadline, job, Date.now() - triedAt);
      if (isFinalFailure(error, job)) {
        const code = failureCode(error);
        // The provider's error without the subscriber's text: failedReason is what the queue monitor shows.
        const detail = scrubbedReason(userFacingReason(error), job.data);
        // If the refund itself cannot be written now, the hold sweeper releases it later.
        const figures = error instanceof RerunRefused ? error.figures : {};
        await failFinally(ctx, queue, jobId, base, { code, detail, figures }, log).catch((refundError: unknown) =>
          log.error({ err: refundError }, "releasing the hold failed; the sweeper will release it"),
        );
        await hooks
          .onFinalFailure?.(job.data as Partial<JobData<Q>>, detail, job)
          .catch((hookError: unknown) => log.error({ err: hookError }, "the queue's final-failure step failed"));
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

/** A job's hold, and where to look for the marker of a hold released while no worker was live. */
interface HoldOf {
  ctx: WorkerContext;
  queue: HeldQueueName;
  jobId: string;
  holdKey: string;
  userId: string;
}

/**
 * The job's hold: still held, already settled, or released while no worker of the queue was live
 * ("rerun": the API left the job queued with a marker, api/src/services/frozen-workers.ts, and it is
 * charged again when it completes). A job never charged does not run, nor one whose hold was
 * released otherwise (a refund went out, e.g. by the sweeper): the user would get work they were
 * refunded for.
 */
async function heldState({ ctx, queue, jobId, holdKey }: HoldOf): Promise<"held" | "settled" | "rerun"> {
  const entry = await findHold<{ holdState: string | null }>(holdKey, { holdState: 1 });
  if (!entry) throw new UnrecoverableError("This request was not charged");
  if (entry.holdState !== "released" && entry.holdState !== "releasing")
    return entry.holdState === "settled" ? "settled" : "held";
  // Released: the rerun's own hold says what happened since, whatever the marker's age.
  const again = await findHold<{ holdState: string | null }>(rerunKey(holdKey), { holdState: 1 });
  if (again?.holdState === "settled") return "settled";
  const rerun = again?.holdState === "held" || (!again && jobId && (await ctx.redis.exists(rerunMarkerKey(queue, jobId))));
  if (!rerun) throw new UnrecoverableError("This request was cancelled and refunded");
  // A release cut short (its refund not written yet) is finished before the job is charged again:
  // until then its coins count against the balance and the day's cap a second time.
  if (entry.holdState === "releasing") await releaseHold(holdKey, "no live worker; charged again when it runs", "worker");
  return "rerun";
}

const rerunKey = (holdKey: string) => `${holdKey}:rerun`;

/**
 * After a settle that did not match. Another run of the job settled it: paid once, so delivered; or
 * the hold was still held and is settled now; or it was released while no worker was live, and the
 * job is charged now (chargeAgain); or it was refunded otherwise (heldState throws and the result is
 * not delivered).
 */
async function settleLate(charge: HoldOf): Promise<void> {
  let state = await heldState(charge);
  if (state === "held" && (await settleHold(charge.holdKey))) return;
  if (state === "held") state = await heldState(charge);
  if (state === "settled") return;
  if (state === "rerun") return chargeAgain(charge);
  throw new Error("The job's hold could not be settled");
}

/**
 * Charges a job whose hold was released while no worker was live, as it completes: the same coins,
 * feature and job (so its conversation's cost counts it once), held under a key of its own
 * (`<hold key>:rerun`, so a second run of the job finds it and is not charged twice) and settled.
 * The work is done (a chat streamed, an image stored): the daily cap was checked when the job was
 * accepted and the release was ours, so it is not asked again. Without the coins now, the job is
 * refused (holdAgain), delivered and unpaid (docs/ledger.md).
 */
async function chargeAgain(charge: HoldOf): Promise<void> {
  await holdAgain(charge, "work done");
  await settleHold(rerunKey(charge.holdKey));
}

/** The daily cap a charge of the user must stay under now (their own, else their tier's), as the API asks it. */
async function dailyCapNow(userId: string): Promise<number | null> {
  const [user, tables] = await Promise.all([
    User.findById(userId, { coins: 1, tier: 1, dailyCap: 1 }).lean<{ coins: number; tier: number; dailyCap?: number | null }>(),
    loadWalletTables(),
  ]);
  return user ? dailyCapFor(user.dailyCap, user.coins, user.tier, tables.tiers).cap : null;
}

/**
 * The hold of a job run again after its first hold was released (the same key replays). Before the
 * work starts it is under the user's daily cap like any charge: the release gave the day's allowance
 * back, so a rerun past the cap would be spending the user did not allow. Once the work is done it
 * is not (chargeAgain). Refused (no coins move), the job fails for good with the code that says why
 * (job:failed, refunded 0).
 */
async function holdAgain({ ctx, holdKey, userId }: HoldOf, when: "under the daily cap" | "work done"): Promise<void> {
  const original = await findHold<{
    amount: number;
    feature?: string | null;
    details?: string;
    queue?: string | null;
    jobId?: string | null;
  }>(holdKey, { amount: 1, feature: 1, details: 1, queue: 1, jobId: 1 });
  if (!original) throw new UnrecoverableError("This request was not charged");
  const key = rerunKey(holdKey);
  try {
    const charged = await hold({
      userId,
      coins: -original.amount,
      key,
      feature: original.feature ?? "",
      details: original.details ?? "",
      queue: original.queue ?? "",
      jobId: original.jobId ?? "",
      dailyCap: when === "under the daily cap" ? await dailyCapNow(userId) : null,
    });
    if (!charged.replayed && charged.balanceAfter !== null)
      ctx.pusher.toUser(userId, "wallet:updated", { coins: charged.balanceAfter, reason: `hold:${original.feature ?? ""}` });
  } catch (error) {
    if (error instanceof InsufficientCoinsError)
      throw new RerunRefused("insufficient_coins", "Not enough coins when the queued request finally ran", {
        needed: error.needed,
        available: error.available,
      });
    if (error instanceof DailyCapError)
      throw new RerunRefused("daily_cap_reached", "Past the daily spending cap when the queued request finally ran", {
        cap: error.cap,
        spent: error.spent,
        needed: error.needed,
      });
    throw error;
  }
}

async function failFinally(
  ctx: WorkerContext,
  queue: HeldQueueName,
  jobId: string,
  base: Partial<ChargedJobBase>,
  { code, detail, figures }: { code: JobFailureCode; detail: string; figures: RefusalFigures },
  log: Logger,
): Promise<void> {
  log.warn({ code, reason: detail }, "job failed for good; releasing its hold");
  if (!base.holdKey || !base.userId) return;
  // Both holds a job can have: its own, and a rerun's after its own was released (each released
  // once; one whose release was cut short is finished here, so both refunds may be this call's).
  const first = await releaseHold(base.holdKey, `job failed: ${code}`, "worker");
  const second = await releaseHold(rerunKey(base.holdKey), `job failed: ${code}`, "worker");
  ctx.pusher.toUser(base.userId, "job:failed", {
    jobId,
    queue,
    code,
    error: JOB_FAILURE_TEXT[code],
    refunded: (first?.amount ?? 0) + (second?.amount ?? 0),
    ...figures,
  });
  const balanceAfter = second?.balanceAfter ?? first?.balanceAfter;
  if (balanceAfter != null) ctx.pusher.toUser(base.userId, "wallet:updated", { coins: balanceAfter, reason: "release" });
}
