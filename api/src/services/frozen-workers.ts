/**
 * A frozen worker holds no coins (issue 33). Each API process reads the charged queues' heartbeats
 * every second (shared/src/server/heartbeat.ts); once a queue has workers connected but none has
 * beaten for SILENT_AFTER_MS (frozen: alive, silent), the holds of that queue's unfinished jobs
 * (waiting, active on the frozen worker, delayed for a retry) are released, and the calls of this
 * process waiting for them are answered 503 at once. A queue whose workers are gone (killed, being
 * restarted by the supervisor) is not frozen: new calls are refused, queued jobs wait for the
 * restart, and the hold sweeper releases what can no longer run. A queue with no beat known at all
 * (Redis restarted without its data) counts as silent only once this process has seen it so for
 * SILENT_AFTER_MS: its workers beat again within a second of reconnecting. The jobs stay in BullMQ: each gets a rerun marker first, so a worker that runs it
 * later (the frozen one resumed, or a new one) charges it then, once (workers/src/jobs/charged.ts).
 * A job whose worker comes back after the marker's time (HOLD_MAX_AGE_MS) is not run: its coins
 * went back and its caller was told.
 *
 * Bound: a queue's last beat is at most HEARTBEAT_INTERVAL_MS before the freeze, and this runs every
 * HEARTBEAT_INTERVAL_MS, so the coins are back within 5 + 1 + 1 s of the freeze, plus the releases'
 * own time (docs/operations.md, "A frozen worker").
 */
import type { Job } from "bullmq";
import { CHARGED_QUEUES, type ChargedJobBase, type ChargedQueueName } from "@storefront/shared";
import {
  findHold,
  HEARTBEAT_INTERVAL_MS,
  releaseHold,
  rerunMarkerKey,
  silenceOf,
  SILENT_AFTER_MS,
} from "@storefront/shared/server";
import type { AppContext } from "../context";
import { AppError } from "../errors";

/** Jobs of one queue looked at per run; the next run (a second later) takes the rest. */
const BATCH = 200;

const FROZEN_WORKER_MESSAGE =
  "No worker has answered for a while. Your coins were returned; your request stays queued and is answered, and charged, once the service is back.";

/** The answer to a call whose job's hold was released while it waited. */
const frozen = (jobId: string) =>
  new AppError(503, "unavailable", FROZEN_WORKER_MESSAGE, {
    jobId,
    refunded: true,
    queued: true,
    retryAfter: SILENT_AFTER_MS / 1000,
  });

export interface FrozenWorkerWatch {
  stop(): void;
}

export function watchFrozenWorkers(ctx: AppContext, intervalMs = HEARTBEAT_INTERVAL_MS): FrozenWorkerWatch {
  /** Jobs this process has released (and answered the waiters of), per queue, while the queue is silent. */
  const released = new Map<ChargedQueueName, Set<string>>(CHARGED_QUEUES.map((queue) => [queue, new Set<string>()]));
  /** When this process first saw a queue with no beat known, while it stays so. */
  const unknownSince = new Map<ChargedQueueName, number>();
  let running = false;

  /** Connected workers that have not beaten for SILENT_AFTER_MS: frozen. */
  async function frozenQueue(queue: ChargedQueueName, silence: number): Promise<boolean> {
    if (silence < SILENT_AFTER_MS) {
      unknownSince.delete(queue);
      return false;
    }
    if (silence === Infinity) {
      const since = unknownSince.get(queue) ?? Date.now();
      unknownSince.set(queue, since);
      if (Date.now() - since < SILENT_AFTER_MS) return false;
    }
    return (await ctx.queues[queue].getWorkersCount()) > 0;
  }

  async function releaseJob(queue: ChargedQueueName, job: Job): Promise<void> {
    const { holdKey, userId } = job.data as Partial<ChargedJobBase>;
    const jobId = job.id;
    const done = released.get(queue)!;
    if (!holdKey || !userId || !jobId || done.has(jobId)) return;
    // The marker before the release: a worker finishing this job right after the release must find it.
    await ctx.redis.set(rerunMarkerKey(queue, jobId), "1", "PX", ctx.config.HOLD_MAX_AGE_MS);
    const refund = await releaseHold(
      holdKey,
      `no live ${queue} worker for ${SILENT_AFTER_MS / 1000} s; charged again when it runs`,
      "api",
    );
    // Released here, or by another API process a moment ago; settled means the job did finish.
    const isReleased =
      refund !== null || (await findHold<{ holdState?: string }>(holdKey, { holdState: 1 }))?.holdState === "released";
    if (!isReleased) return;
    done.add(jobId);
    if (refund) {
      ctx.log.warn({ queue, jobId, holdKey }, "no live worker: released the hold of a queued job");
      if (refund.balanceAfter !== null)
        ctx.pusher.toUser(userId, "wallet:updated", { coins: refund.balanceAfter, reason: "release" });
    }
    ctx.jobs.refuse(queue, jobId, frozen(jobId));
  }

  async function check(): Promise<void> {
    const silence = await silenceOf(ctx.redis, CHARGED_QUEUES);
    for (const queue of CHARGED_QUEUES) {
      if (!(await frozenQueue(queue, silence[queue]))) {
        released.get(queue)!.clear();
        continue;
      }
      const jobs = await ctx.queues[queue].getJobs(["active", "waiting", "prioritized", "delayed"], 0, BATCH - 1);
      for (const job of jobs) {
        await releaseJob(queue, job).catch((error: unknown) =>
          ctx.log.warn(
            { err: error, queue, jobId: job.id },
            "releasing the hold of a job without a live worker failed; tried again",
          ),
        );
      }
    }
  }

  const timer = setInterval(() => {
    if (running) return;
    running = true;
    check()
      .catch((error: unknown) => ctx.log.debug({ err: error }, "reading the workers' heartbeats failed"))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
