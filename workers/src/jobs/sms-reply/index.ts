/**
 * The "sms-reply" queue: one inbound SMS from the gateway webhook. Logs every step (SPEC §9
 * actions), stores every message, applies the integration switch, opt-out, rate limit, user
 * state and wallet, and answers through the HTTP gateway or SMPP.
 *
 * Retries are safe: each log step and message has a unique key, the charge has an idempotency
 * key from the message's key (its gateway, sender, recipient and gateway id: message-key.ts), and
 * the outbound record carries its state (prepared →
 * sending → sent | failed), so a job that dies anywhere resumes without charging or
 * sending twice (a crash during the send itself may resend with the same reference, which the
 * gateway can drop).
 */
import { Queue, UnrecoverableError, type Job, type Processor } from "bullmq";
import {
  isArabic,
  priceOf,
  smsQueueJobSchema,
  type Language,
  type SmsQueueJob,
  type SmsReplyJob,
  type SmsReplyJobResult,
} from "@storefront/shared";
import {
  loadSmsIntegrationConfig,
  loadWalletTables,
  logSmsSteps,
  onCacheChange,
  SmsGatewayConfig,
  smsMessageDone,
  SmsMessage,
  SmsOptOut,
  type SmsGatewayConfigDoc,
  type SmsMessageDoc,
} from "@storefront/shared/server";
import type { WorkerContext } from "../../context";
import { SmppLinks, smppTargetOf } from "../../gateways/smpp";
import { acceptSmppInbound } from "./inbound-smpp";
import { messageKeyOf } from "./message-key";
import { createChatProvider } from "../../providers/chat/index";
import { alertMessageId, handleAlert } from "./alert";
import { codeMessageId, handleCode } from "./code";
import { handleKeyword, keywordOf } from "./keywords";
import { finish, logSteps, outcomeStep } from "./log";
import { chargeAndSend, prepareOutbound, smppGatewayFor } from "./outbound";
import { allowedByRateLimit } from "./rate-limit";
import { recordReceipt } from "./receipts";
import { aiReply } from "./reply";
import { canonicalPhone, findSubscriber } from "./subscriber";
import type { Context, SmsReplyDeps } from "./types";

export { keywordOf } from "./keywords";
export { recordReceipt } from "./receipts";
export { canonicalPhone } from "./subscriber";
export type { SmsReplyDeps } from "./types";

let deps: SmsReplyDeps | undefined;

function smsDeps(ctx: WorkerContext): SmsReplyDeps {
  if (!deps) {
    const { config, redis, pusher, log } = ctx;
    deps = {
      redis,
      pusher,
      chat: createChatProvider(config),
      log,
      phoneCountry: config.DEFAULT_PHONE_COUNTRY,
      http: { receiptBaseUrl: config.PUBLIC_BASE_URL },
      smsQueue: new Queue("sms-reply", { connection: redis }).on("error", () => undefined),
      lowBalance: { threshold: config.LOW_BALANCE_THRESHOLD, smsPerDay: config.LOW_BALANCE_SMS_PER_DAY },
      smpp: new SmppLinks({
        onReceipt: (receipt) =>
          void recordReceipt(receipt, redis).catch((err: unknown) => log.warn({ err }, "delivery receipt not stored")),
        onInbound: async (message) => {
          const outcome = await acceptSmppInbound(redis, deps!.smsQueue!, message);
          log.info({ smsc: message.smsc, outcome }, "sms over smpp");
        },
        onEvent: (event, details) => log.info({ ...details, event }, "smpp link"),
      }),
    };
  }
  return deps;
}

/**
 * Binds every gateway of the SMS Config list now and whenever an administrator changes the list
 * (and every minute, should a change notice be lost): subscribers' messages come over these binds.
 */
export function bindSmsGateways(ctx: WorkerContext): void {
  const { smpp } = smsDeps(ctx);
  const sync = () =>
    SmsGatewayConfig.find()
      .lean<SmsGatewayConfigDoc[]>()
      .then((rows) =>
        smpp.keepBound(rows.map(smppTargetOf), (err: unknown) => ctx.log.warn({ err }, "smpp gateway not bound yet")),
      )
      .catch((err: unknown) => ctx.log.warn({ err }, "smpp gateways not read"));
  void sync();
  onCacheChange("sms-gateways", () => void sync());
  setInterval(() => void sync(), 60_000).unref();
}

/** Unbinds this process's SMPP links (worker shutdown, after the last job has finished). */
export async function closeSmsGateways(): Promise<void> {
  await Promise.all([deps?.smpp.closeAll(), deps?.smsQueue?.close()]);
}

export async function handleInbound(job: SmsReplyJob, deps: SmsReplyDeps): Promise<SmsReplyJobResult> {
  const phone = canonicalPhone(job.from, deps.phoneCountry);
  // Independent reads in one go, then the two that need the message's key: two round trips, not seven.
  const [user, config, smppGateway, key, optedOut] = await Promise.all([
    findSubscriber(job.from, deps.phoneCountry),
    loadSmsIntegrationConfig(),
    smppGatewayFor(job.to),
    messageKeyOf(job, phone),
    SmsOptOut.exists({ phone }),
  ]);
  const [existing, done] = await Promise.all([
    SmsMessage.findOne({ key: `out:${key}` }).lean<SmsMessageDoc>(),
    smsMessageDone(key),
  ]);
  const ctx: Context = { job, key, phone, user, deps, config, smppGateway, inReplyTo: job.messageId };

  await Promise.all([
    SmsMessage.updateOne(
      { key: `in:${key}` },
      {
        $setOnInsert: {
          direction: "inbound",
          phone,
          user_id: user?.id ?? null,
          user_name: user?.name ?? "Unknown",
          message: job.text,
          shortcode: job.to,
          gateway_message_id: job.messageId,
          received_at: job.receivedAt,
        },
      },
      { upsert: true },
    ),
    logSteps(ctx, ["webhook_received", "received", { from: job.from, to: job.to, text: job.text, channel: job.channel }]),
  ]);

  // A retry resumes the reply an earlier attempt prepared instead of deciding again.
  if (existing) return chargeAndSend(ctx, existing);
  if (done) return { outcome: "already_processed" };

  if (!config.enabled) return finish(ctx, "integration_disabled");

  const keyword = keywordOf(job.text);
  if (keyword) {
    const handled = await handleKeyword(ctx, keyword);
    if (handled) return handled;
  } else if (optedOut) {
    return finish(ctx, "opted_out");
  }

  if (!(await allowedByRateLimit(deps.redis, phone, key, config.rate_limit_per_minute))) {
    return finish(ctx, "rate_limited", { limit_per_minute: config.rate_limit_per_minute });
  }

  if (!user) {
    await logSteps(ctx, ["unknown_user_sms", "unknown_user", { text: job.text }]);
    return chargeAndSend(ctx, await prepareOutbound(ctx, "welcome", config.welcome_message, 0));
  }
  if (!user.isActive) return finish(ctx, "user_inactive");
  if (!config.auto_reply_enabled) return finish(ctx, "auto_reply_disabled");

  // A wallet that cannot pay for the shortest reply (one segment) gets the notice without an AI
  // call: a 0-coin sender must not buy a provider completion per message. The debit still decides
  // for everyone else (the balance may change while the reply is written).
  const { pricing } = await loadWalletTables();
  const cheapest = priceOf({ feature: "sms", text: "" }, pricing);
  if (user.coins < cheapest) {
    const notice = await prepareOutbound(ctx, "insufficient_funds", config.insufficient_funds_message, 0);
    return chargeAndSend(ctx, notice, [
      ["sms_processed", "insufficient", { result: "insufficient_funds", needed: cheapest, available: user.coins }],
    ]);
  }

  const language: Language = isArabic(job.text) ? "ar" : "en";
  const reply = await aiReply(ctx, language);
  const coins = priceOf({ feature: "sms", text: reply }, pricing);
  return chargeAndSend(ctx, await prepareOutbound(ctx, "ai", reply, coins));
}

/** The last attempt failed: the administrator still sees an outcome for the message. */
async function recordFailure(job: SmsQueueJob, error: unknown): Promise<void> {
  const alert = "type" in job && job.type === "low_balance";
  const messageId = !("type" in job) ? job.messageId : job.type === "low_balance" ? alertMessageId(job) : codeMessageId(job);
  const key = "type" in job ? messageId : await messageKeyOf(job, canonicalPhone(job.from, deps?.phoneCountry));
  await logSmsSteps(
    {
      messageId,
      key,
      userId: alert ? job.userId : null,
      userName: "",
      phone: "type" in job ? (job.type === "phone_code" ? job.phone : "") : canonicalPhone(job.from, deps?.phoneCountry),
    },
    [outcomeStep("failed", { error: error instanceof Error ? error.message : String(error) })],
  );
}

export const smsReplyProcessor =
  (ctx: WorkerContext): Processor =>
  async (job: Job): Promise<SmsReplyJobResult> => {
    const parsed = smsQueueJobSchema.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(`bad sms-reply payload: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    }
    try {
      const data = parsed.data;
      if (!("type" in data)) return await handleInbound(data, smsDeps(ctx));
      return await (data.type === "low_balance" ? handleAlert(data, smsDeps(ctx)) : handleCode(data, smsDeps(ctx)));
    } catch (error) {
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (lastAttempt) await recordFailure(parsed.data, error).catch(() => undefined);
      throw error;
    }
  };
