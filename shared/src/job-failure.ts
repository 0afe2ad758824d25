/**
 * How a finally failed job tells the HTTP call waiting for it what went wrong without handing the
 * provider's own text to the subscriber: the worker fails the job with "[code] detail" (BullMQ's
 * failedReason, read by the admin failed-jobs view and the logs); the API answers with the code
 * and the neutral text of that code, and the web shows its own translation of the code.
 */
import { MESSAGES, type ErrorCode } from "./messages";

export const JOB_FAILURE_CODES = [
  "ai_busy",
  "ai_unavailable",
  "ai_refused",
  "job_failed",
  // A job run again after its hold was released (docs/ledger.md), refused when it came to be charged again.
  "insufficient_coins",
  "daily_cap_reached",
] as const satisfies readonly ErrorCode[];
export type JobFailureCode = (typeof JOB_FAILURE_CODES)[number];

/** The subscriber-facing text of each code: provider-neutral, no upstream detail. */
export const JOB_FAILURE_TEXT: Record<JobFailureCode, string> = {
  ai_busy: MESSAGES.aiBusy,
  ai_unavailable: MESSAGES.aiUnavailable,
  ai_refused: MESSAGES.aiRefused,
  job_failed: MESSAGES.jobFailed,
  insufficient_coins: MESSAGES.insufficientCoins,
  daily_cap_reached: MESSAGES.dailyCapReached,
};

/** The failedReason a worker gives a job it fails for good. */
export function jobFailureReason(code: JobFailureCode, detail: string): string {
  return `[${code}] ${detail}`.slice(0, 500);
}

/** Code and detail of a failedReason; a reason without a code (a stalled job, an old job) is job_failed. */
export function parseJobFailure(reason: string | undefined): { code: JobFailureCode; detail: string } {
  const match = /^\[([a-z_]+)\] ?([\s\S]*)$/u.exec(reason ?? "");
  const code = JOB_FAILURE_CODES.find((c) => c === match?.[1]);
  return code ? { code, detail: match![2]! } : { code: "job_failed", detail: reason ?? "" };
}
