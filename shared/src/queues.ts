/**
 * Queue names of DESIGN §1: one BullMQ queue per kind of work, so each has its own concurrency.
 * "maintenance" runs the scheduled jobs (ledger reconciler, hold sweeper, package renewal).
 */
export const QUEUE_NAMES = ["chat", "image", "video", "sms-reply", "maintenance"] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Queues whose jobs are charged to a wallet (hold → settle → release). */
export const CHARGED_QUEUES = ["chat", "image", "video", "sms-reply"] as const satisfies readonly QueueName[];
export type ChargedQueueName = (typeof CHARGED_QUEUES)[number];
