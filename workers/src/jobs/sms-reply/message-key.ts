/**
 * The key an inbound message's records, log rows and charge are stored under (smsMessageKey,
 * docs/ledger.md "SMS keys"): the one the webhook or the SMPP bind computed and put in the job.
 *
 * The version before keyed them by the gateway's id alone. A message it recorded (the same id,
 * sender and shortcode, received within its duplicate window) keeps that key: a retry of a message
 * accepted before the upgrade resumes its record and its charge, never a second one. A job queued
 * before the upgrade carries no key; unless its message was recorded so, it gets the key the
 * webhook gives such a message now (of a gateway that names itself nowhere).
 */
import type { SmsReplyJob } from "@storefront/shared";
import { SMS_LEGACY_KEY_WINDOW_MS, SmsMessage, smsMessageKey } from "@storefront/shared/server";

export async function messageKeyOf(job: SmsReplyJob, phone: string, now = Date.now()): Promise<string> {
  const recordedBefore = await SmsMessage.exists({
    key: `in:${job.messageId}`,
    phone,
    shortcode: job.to,
    received_at: { $gte: now - SMS_LEGACY_KEY_WINDOW_MS },
  });
  if (recordedBefore) return job.messageId;
  return job.key ?? smsMessageKey({ source: `${job.channel}:`, from: job.from, to: job.to, messageId: job.messageId });
}
