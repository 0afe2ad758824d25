/** Queue names of DESIGN §1; one BullMQ queue per kind of work. */
export const QUEUE_NAMES = ["chat", "image", "video", "sms-reply"] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];
