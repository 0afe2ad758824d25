/** Pushes the live queue numbers to the admins room for the admin Queues section. */
import type { Queue } from "bullmq";
import { queueStats, queueStatsEvent } from "@storefront/shared/server";
import type { ScheduleContext } from "./context";

export const QUEUE_STATS_EVERY_MS = 5_000;

export async function pushQueueStats(ctx: ScheduleContext, now = new Date()): Promise<{ queues: number }> {
  const stats = await queueStats(Object.values(ctx.queues) as Queue[], ctx.redis, now.getTime());
  ctx.pusher.toAdmins("queues:stats", queueStatsEvent(stats, now));
  return { queues: stats.length };
}
