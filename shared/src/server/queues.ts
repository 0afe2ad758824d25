import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { QUEUE_NAMES, type QueueName } from "../queues";

export type Queues = Record<QueueName, Queue>;

/**
 * One BullMQ queue per kind of work, sharing one Redis connection. A queue re-emits its
 * connection's errors, which the connection's own handler already logs once per outage
 * (createRedis); without a listener BullMQ would print each reconnect attempt.
 */
export function createQueues(connection: Redis): Queues {
  return Object.fromEntries(
    QUEUE_NAMES.map((name) => [name, new Queue(name, { connection }).on("error", () => undefined)]),
  ) as Queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q) => q.close()));
}
