/** The Queues section: live numbers, failed jobs, and retry / remove of a failed job. */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { QueueJobActionRequest, QueuesResponse } from "@storefront/shared";
import { failedJobs, monitoredJob, queueStats, type Queues } from "@storefront/shared/server";
import { badRequest, conflict, notFound } from "../errors";
import type { AuthedAdmin } from "../middleware/auth";
import { recordAudit } from "./audit";

export async function queuesOverview(queues: Queues, redis: Redis, now = new Date()): Promise<QueuesResponse> {
  const list = Object.values(queues) as Queue[];
  const [stats, failed] = await Promise.all([queueStats(list, redis, now.getTime()), failedJobs(list)]);
  return { success: true, at: now.toISOString(), queues: stats, failed };
}

export async function actOnJob(admin: AuthedAdmin, queues: Queues, input: QueueJobActionRequest): Promise<void> {
  const queue = (queues as Record<string, Queue | undefined>)[input.queue];
  if (!queue) throw badRequest(`queue: no queue named ${input.queue}`, "queue");
  const job = await queue.getJob(input.jobId);
  if (!job) throw notFound("Job not found");
  const state = await job.getState();
  if (input.action === "retry") {
    if (state !== "failed") throw conflict(`Only failed jobs can be retried (this one is ${state})`);
    await job.retry("failed");
  } else {
    if (state === "active") throw conflict("An active job cannot be removed");
    await job.remove();
  }
  await recordAudit(admin, {
    action: `queue_job.${input.action}`,
    targetType: "job",
    targetId: `${input.queue}:${input.jobId}`,
    before: { state, name: job.name, error: job.failedReason ? monitoredJob(job).failedReason : null },
    after: input.action === "retry" ? { state: "waiting" } : null,
  });
}
