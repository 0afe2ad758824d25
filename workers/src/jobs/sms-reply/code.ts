/**
 * A phone code (queued by api/src/services/phone-proof.ts): free, to the number it proves, through
 * the HTTP gateway or, when there is none, the first SMPP gateway of the SMS Config list, like the
 * low-balance SMS. It goes whatever the integration's auto-reply switch and STOP say: the person
 * asked for it on the web, and its limits are the API's. Its record and log rows show the code
 * masked (administrators read them; a code read there would prove a number), so a retry after
 * the record was written sends the code of the job again, never the record's text.
 *
 * At most once to the gateway: the record is marked "sending" before the gateway is called, and a
 * retry that finds it so (an earlier attempt reached the gateway, which may have taken the message
 * before its answer or the record's update was lost) sends nothing and records it failed; an
 * attempt that loses the claim to another one running at the same time sends nothing and leaves the
 * record alone (already_processed). A code
 * the gateway never got is asked for again by its owner (after PHONE_CODE_RESEND_SECONDS); the
 * same code is never texted again and again at our cost.
 */
import { PHONE_CODE_SMS, type SmsCodeJob, type SmsReplyJob } from "@storefront/shared";
import { loadSmsIntegrationConfig, smsMessageDone, SmsMessage, type SmsMessageDoc } from "@storefront/shared/server";
import { chargeAndSend, anySmppGateway, prepareOutbound } from "./outbound";
import type { Context, SmsReplyDeps, SmsReplyOutcome } from "./types";

/** The id its records and log rows are keyed by (the place of the gateway's message id in a reply). */
export const codeMessageId = (job: Pick<SmsCodeJob, "codeId">): string => `phone-code:${job.codeId}`;

const textOf = (job: SmsCodeJob, code: string) =>
  PHONE_CODE_SMS[job.language].replace("{code}", code).replace("{minutes}", String(job.minutes));

export async function handleCode(job: SmsCodeJob, deps: SmsReplyDeps): Promise<{ outcome: SmsReplyOutcome }> {
  const messageId = codeMessageId(job);
  const [ctx, existing, done] = await Promise.all([
    codeContext(job, deps),
    SmsMessage.findOne({ key: `out:${messageId}` }).lean<SmsMessageDoc>(),
    smsMessageDone(messageId),
  ]);
  if (!existing && done) return { outcome: "already_processed" };
  return sendCode(ctx, existing ?? (await prepareOutbound(ctx, "phone_code", textOf(job, "••••••"), 0)));
}

/** What sending a code works with: the integration's settings and gateway, the code's text kept out of its record. */
export async function codeContext(job: SmsCodeJob, deps: SmsReplyDeps): Promise<Context> {
  const config = await loadSmsIntegrationConfig();
  const smppGateway = config.gateway_url ? null : await anySmppGateway();
  const shaped: SmsReplyJob = {
    messageId: codeMessageId(job),
    from: job.phone,
    to: smppGateway?.shortcode ?? "",
    text: "",
    receivedAt: Date.now(),
    channel: "webhook",
  };
  return {
    job: shaped,
    key: shaped.messageId,
    phone: job.phone,
    inReplyTo: null,
    deps,
    config,
    smppGateway,
    user: null,
    secretText: textOf(job, job.code),
  };
}

/** Sends the code of its record, as this attempt read it, unless another attempt has taken it to the gateway. */
export async function sendCode(ctx: Context, record: SmsMessageDoc): Promise<{ outcome: SmsReplyOutcome }> {
  if (record.state !== "prepared") return chargeAndSend(ctx, record.state === "sending" ? await notResent(record) : record);
  const claimed = await SmsMessage.findOneAndUpdate(
    { _id: record._id, state: "prepared" },
    { $set: { state: "sending" } },
    { returnDocument: "after" },
  ).lean<SmsMessageDoc>();
  // Another attempt claimed it meanwhile and is sending it: this one sends nothing and leaves the
  // record and its log to that attempt (marking it failed here would undo the winner's send).
  if (!claimed) return { outcome: "already_processed" };
  return chargeAndSend(ctx, claimed);
}

/** The record of a code an earlier attempt took to the gateway, marked failed (never sent twice). */
async function notResent(record: SmsMessageDoc): Promise<SmsMessageDoc> {
  const gateway_response = "not sent again: an earlier attempt reached the gateway, which may have taken it";
  await SmsMessage.updateOne(
    { _id: record._id, state: { $in: ["prepared", "sending"] } },
    { $set: { state: "failed", gateway_response } },
  );
  return { ...record, state: "failed" as const, gateway_response } as SmsMessageDoc;
}
