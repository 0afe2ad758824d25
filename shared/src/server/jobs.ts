/**
 * Job options shared by the API (which adds jobs) and the workers (which retry them), so both
 * read attempts, backoff and retention from one place.
 */
import { createHash } from "node:crypto";
import type { BackoffStrategy, JobsOptions } from "bullmq";
import type { Config } from "./config";

/** Custom backoff type: exponential, but never sooner than the provider's Retry-After. */
export const PROVIDER_BACKOFF = "provider";

/** Finished jobs stay long enough for a retried HTTP request to read their result. */
const KEEP_COMPLETED = { age: 24 * 3600, count: 10_000 };
const KEEP_FAILED = { age: 7 * 24 * 3600, count: 10_000 };

/**
 * The BullMQ job id of a charge: derived from its hold key, so a retried request with the same
 * Idempotency-Key names the same job (BullMQ ignores a second add of an existing id).
 * Hashed because BullMQ ids cannot contain ":".
 */
export function jobIdForHold(queue: string, holdKey: string): string {
  return `${queue}-${createHash("sha256").update(holdKey).digest("hex").slice(0, 40)}`;
}

export function chargedJobOptions(config: Config, jobId: string): JobsOptions {
  return {
    jobId,
    attempts: config.JOB_ATTEMPTS,
    backoff: { type: PROVIDER_BACKOFF, delay: config.JOB_BACKOFF_MS },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
  };
}

/**
 * Job options of the "sms-reply" queue, an inbound message or a low-balance SMS alike: a few
 * retries a second apart and more (a gateway or database blip), kept as long as charged jobs.
 */
export function smsJobOptions(jobId: string): JobsOptions {
  return {
    jobId,
    attempts: 5,
    backoff: { type: "exponential", delay: 1000 },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
  };
}

/**
 * BullMQ ids cannot contain ":"; a hash of the message's key is stable across deliveries (webhook and
 * SMPP alike). `sms2-`, not the `sms-` of the version before (legacySmsJobId): that one hashed the
 * gateway's id, which the gateway chooses, so an id spelled as a message key would have taken the
 * job id of that message.
 */
export function smsJobId(messageKey: string): string {
  return `sms2-${createHash("sha256").update(messageKey).digest("hex").slice(0, 40)}`;
}

/** The job id the version before SMS keys gave a message: by the gateway's id alone (looked up during the upgrade window). */
export function legacySmsJobId(messageId: string): string {
  return `sms-${createHash("sha256").update(messageId).digest("hex").slice(0, 40)}`;
}

/** What names one inbound SMS: the gateway's id of it only together with where it came from, its sender and recipient. */
export interface SmsMessageIdentity {
  /** `webhook:<gateway>` (the gateway's own name of itself, "" when it gives none) or `smpp:<smsc>`. */
  source: string;
  from: string;
  to: string;
  /** The gateway's id of the message (or the id the webhook derived when it gave none). */
  messageId: string;
}

/**
 * The key an inbound SMS is remembered by: its duplicate check, BullMQ job, records (`in:`, `out:`),
 * log rows and ledger entries (`sms-reply:`, `sms-refund:`). A gateway chooses its ids (counters
 * that restart, the same counter on two gateways), so the id alone is no identity; a true retry
 * (same gateway, sender, recipient and id) has the same key. Hex, so it never contains ":" and
 * never looks like the key of an alert or a code. Computed once where the message comes in.
 */
export function smsMessageKey(message: SmsMessageIdentity): string {
  const { source, from, to, messageId } = message;
  return createHash("sha256")
    .update(JSON.stringify([source, from, to, messageId]))
    .digest("hex");
}

/** Before SMS keys, a message was keyed by the gateway's id alone (records, log rows, ledger keys; docs/operations.md). */
export const SMS_LEGACY_KEY_WINDOW_MS = 7 * 24 * 3600_000;

/** Worker-side strategy for PROVIDER_BACKOFF; `delay` comes from the job's own options. */
export const providerBackoff: BackoffStrategy = (attemptsMade, _type, err, job) => {
  const backoff = job?.opts.backoff;
  const base = typeof backoff === "object" && backoff.delay ? backoff.delay : 1000;
  const exponential = Math.round(base * 2 ** Math.max(0, attemptsMade - 1));
  const retryAfter = (err as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof retryAfter === "number" && retryAfter > exponential ? retryAfter : exponential;
};
