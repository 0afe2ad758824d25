/**
 * A phone code (queued by api/src/services/phone-proof.ts): free, to the number it proves, through
 * the HTTP gateway or, when there is none, the first SMPP gateway of the SMS Config list, like the
 * low-balance SMS. It goes whatever the integration's auto-reply switch and STOP say: the person
 * asked for it on the web, and its limits are the API's. Its record and log rows show the code
 * masked (administrators read them; a code read there would prove a number), so a retry after
 * the record was written sends the code of the job again, never the record's text.
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
  const [config, existing, done] = await Promise.all([
    loadSmsIntegrationConfig(),
    SmsMessage.findOne({ key: `out:${messageId}` }).lean<SmsMessageDoc>(),
    smsMessageDone(messageId),
  ]);
  const smppGateway = config.gateway_url ? null : await anySmppGateway();
  const shaped: SmsReplyJob = {
    messageId,
    from: job.phone,
    to: smppGateway?.shortcode ?? "",
    text: "",
    receivedAt: Date.now(),
    channel: "webhook",
  };
  const ctx: Context = {
    job: shaped,
    phone: job.phone,
    inReplyTo: null,
    deps,
    config,
    smppGateway,
    user: null,
    secretText: textOf(job, job.code),
  };
  if (existing) return chargeAndSend(ctx, existing);
  if (done) return { outcome: "already_processed" };
  return chargeAndSend(ctx, await prepareOutbound(ctx, "phone_code", textOf(job, "••••••"), 0));
}
