/**
 * What the queue monitor (Bull Board and the back office's Queues section) may show of a job:
 * its id, name, state, timings, attempts, failure code and the size of its payload, never the
 * payload itself (messages, Doctor texts, replies, phone numbers, images, the subscriber's id).
 * Nobody sees a payload through the monitor (docs/permissions.md).
 */
import { parseJobFailure } from "../job-failure";

/** Bytes of a payload as stored (JSON), so a monitor can show how big a job is without its content. */
export function payloadBytes(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
}

/** Every string inside a payload (keys aside). */
function stringsOf(value: unknown, found: string[] = [], depth = 0): string[] {
  if (depth > 8) return found;
  if (typeof value === "string") found.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, found, depth + 1);
  else if (value && typeof value === "object") for (const item of Object.values(value)) stringsOf(item, found, depth + 1);
  return found;
}

const HIDDEN = "[hidden]";
/** A run of digits as phones are written (+, spaces, dashes): a number never reaches the monitor. */
const PHONE_LIKE = /\+?\d[\d\s-]{6,18}\d/gu;

/**
 * A failure reason without the job's own texts: the provider's words stay, anything the job
 * carried (each text of 8 characters or more whole, and each of its lines and sentences of 12 or more,
 * as providers quote a part) becomes "[hidden]", and so does any phone-like number.
 */
export function scrubbedReason(reason: string, payload: unknown): string {
  const pieces = new Set<string>();
  for (const text of stringsOf(payload)) {
    const trimmed = text.trim();
    if (trimmed.length >= 8) pieces.add(trimmed);
    for (const part of trimmed.split(/[\n.!?؟。]+/u)) if (part.trim().length >= 12) pieces.add(part.trim());
  }
  let scrubbed = reason;
  // Longest first, so a sentence inside a hidden message does not leave the rest of it behind.
  for (const piece of [...pieces].sort((a, b) => b.length - a.length)) scrubbed = scrubbed.split(piece).join(HIDDEN);
  return scrubbed.replace(PHONE_LIKE, HIDDEN);
}

/** A job as the monitor shows it: what it is and how it went, with its payload's size only. */
export interface MonitoredJob {
  data: { hidden: true; bytes: number };
  returnValue: { hidden: true; bytes: number } | null;
  failedReason: string;
  failureCode: string | null;
}

export function monitoredJob(job: { data?: unknown; returnvalue?: unknown; failedReason?: string }): MonitoredJob {
  const reason = job.failedReason ? scrubbedReason(job.failedReason, job.data) : "";
  return {
    data: { hidden: true, bytes: payloadBytes(job.data) },
    returnValue:
      job.returnvalue === undefined || job.returnvalue === null ? null : { hidden: true, bytes: payloadBytes(job.returnvalue) },
    failedReason: reason,
    failureCode: job.failedReason ? parseJobFailure(job.failedReason).code : null,
  };
}
