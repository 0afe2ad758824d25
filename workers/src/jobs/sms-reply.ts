/**
 * The "sms-reply" queue: one inbound SMS from the gateway webhook. Logs every step (SPEC §9
 * actions), stores every message, applies the integration switch, opt-out, rate limit, user
 * state and wallet, and answers through the HTTP gateway or SMPP.
 *
 * Retries are safe: each log step and message has a unique key, the charge has an idempotency
 * key from the gateway's message id, and the outbound record carries its state (prepared →
 * sending → sent | failed), so a job that dies anywhere resumes without charging or
 * sending twice (a crash during the send itself may resend with the same reference, which the
 * gateway can drop).
 */
import { UnrecoverableError, type Job, type Processor } from "bullmq";
import type { Redis } from "ioredis";
import type { Types } from "mongoose";
import {
  cleanMarkdown,
  isArabic,
  LIMITS,
  personaById,
  priceOf,
  limitSmsReply,
  smsEncoding,
  smsReplyJobSchema,
  smsSystemPrompt,
  type ChatTurn,
  type Language,
  type SmsIntegrationConfigValues,
  type SmsLogAction,
  type SmsReplyJob,
} from "@storefront/shared";
import {
  credit,
  debit,
  InsufficientCoinsError,
  loadSmsIntegrationConfig,
  loadWalletTables,
  SmsGatewayConfig,
  SmsLog,
  SmsMessage,
  SmsOptOut,
  User,
  type Logger,
  type Pusher,
  type SmsGatewayConfigDoc,
  type SmsMessageDoc,
} from "@storefront/shared/server";
import { localReply } from "@storefront/shared/reply-engine";
import { sendViaHttp, type HttpGatewayOptions } from "../gateways/http";
import { SmppLinks, smppTargetOf, type DeliveryReceipt } from "../gateways/smpp";
import { GatewayError, type SendResult } from "../gateways/types";
import { createChatProvider, type ChatProvider } from "../providers/chat/index";
import type { WorkerContext } from "../context";

export interface SmsReplyDeps {
  redis: Redis;
  pusher: Pusher | null;
  chat: ChatProvider;
  smpp: SmppLinks;
  http: HttpGatewayOptions;
  log: Logger;
}

let deps: SmsReplyDeps | undefined;

/** Records a delivery receipt (SMPP deliver_sm) on the outbound message it is about. */
export async function recordReceipt(receipt: DeliveryReceipt): Promise<void> {
  await SmsMessage.updateOne(
    { direction: "outbound", channel: "smpp", gateway_message_id: receipt.messageId },
    { $set: { delivery_status: receipt.state, delivered_at: new Date() } },
  );
}

function smsDeps(ctx: WorkerContext): SmsReplyDeps {
  if (!deps) {
    const { config, redis, pusher, log } = ctx;
    deps = {
      redis,
      pusher,
      chat: createChatProvider(config),
      log,
      http: {},
      smpp: new SmppLinks({
        onReceipt: (receipt) =>
          void recordReceipt(receipt).catch((err: unknown) => log.warn({ err }, "delivery receipt not stored")),
        onEvent: (event, details) => log.info({ ...details, event }, "smpp link"),
      }),
    };
  }
  return deps;
}

/** Unbinds this process's SMPP links (worker shutdown, after the last job has finished). */
export async function closeSmsGateways(): Promise<void> {
  await deps?.smpp.closeAll();
}

/** Lets tests run the processor with their own connections, provider and gateway settings. */
export function setSmsReplyDeps(next: SmsReplyDeps): void {
  deps = next;
}

const STOP_WORDS = new Set(["STOP", "UNSUBSCRIBE", "STOPALL", "إيقاف", "ايقاف", "الغاء", "إلغاء"]);
const START_WORDS = new Set(["START", "SUBSCRIBE", "ابدأ", "ابدا", "إبدأ"]);

const NOTICES = {
  opt_out: {
    en: "You are unsubscribed and will get no more replies. Send START to subscribe again.",
    ar: "تم إلغاء اشتراكك ولن تصلك ردود بعد الآن. أرسل ابدأ للاشتراك من جديد.",
  },
  opt_in: {
    en: "You are subscribed again. Send STOP to unsubscribe.",
    ar: "تمت إعادة اشتراكك. أرسل إيقاف لإلغاء الاشتراك.",
  },
} as const;

type Keyword = "stop" | "start" | null;

export function keywordOf(text: string): Keyword {
  const word = text
    .trim()
    .replace(/[.!؟?،,\s]+$/u, "")
    .toUpperCase();
  if (STOP_WORDS.has(word)) return "stop";
  if (START_WORDS.has(word)) return "start";
  return null;
}

/** Phones as stored on the record: "+" and digits, "00" read as "+". */
export function canonicalPhone(phone: string): string {
  const digits = phone.replace(/^\+/u, "").replace(/^00/u, "");
  return `+${digits}`;
}

/** Every way a subscriber's phone may have been typed at signup. */
function phoneVariants(canonical: string): string[] {
  const digits = canonical.slice(1);
  return [canonical, digits, `00${digits}`];
}

const RATE_WINDOW_MS = 60_000;
/**
 * Sliding window per phone: a sorted set of the message ids allowed in the last minute. A
 * retried job finds its own id and passes again without using a second slot.
 */
const RATE_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local member = ARGV[4]
if redis.call('ZSCORE', key, member) then return 1 end
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= limit then return 0 end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
return 1
`;

export async function allowedByRateLimit(
  redis: Redis,
  phone: string,
  messageId: string,
  limit: number,
  now = Date.now(),
): Promise<boolean> {
  const result = await redis.eval(RATE_SCRIPT, 1, `sms:rate:${phone}`, now, RATE_WINDOW_MS, limit, messageId);
  return result === 1;
}

interface Subscriber {
  id: Types.ObjectId;
  name: string;
  phone: string;
  isActive: boolean;
}

interface Context {
  job: SmsReplyJob;
  phone: string;
  user: Subscriber | null;
  deps: SmsReplyDeps;
  config: SmsIntegrationConfigValues;
  /** The SMPP gateway of the message's shortcode, when the SMS Config list has one. */
  smppGateway: SmsGatewayConfigDoc | null;
}

export type SmsReplyOutcome =
  | "integration_disabled"
  | "opted_out"
  | "rate_limited"
  | "user_inactive"
  | "auto_reply_disabled"
  | "replied"
  | "delivery_failed"
  | "already_processed"
  | "failed";

type Step = [action: SmsLogAction, step: string, details: Record<string, unknown>];

/** Writes log steps in one round-trip; each step's key makes a retried job write it once. */
async function logSteps(ctx: Context, ...steps: Step[]): Promise<void> {
  await SmsLog.bulkWrite(
    steps.map(([action, step, details]) => ({
      updateOne: {
        filter: { key: `${ctx.job.messageId}:${step}` },
        update: {
          $setOnInsert: {
            action,
            user_id: ctx.user?.id ?? null,
            user_name: ctx.user?.name ?? "Unknown",
            phone: ctx.phone,
            message_id: ctx.job.messageId,
            details: JSON.stringify(details),
          },
        },
        upsert: true,
      },
    })),
    { ordered: true },
  );
}

/** The last step of every message: its outcome, which also marks the message as done. */
function outcomeStep(outcome: SmsReplyOutcome, details: Record<string, unknown> = {}): Step {
  return ["sms_processed", "processed", { result: outcome, ...details }];
}

async function finish(
  ctx: Context,
  outcome: SmsReplyOutcome,
  details: Record<string, unknown> = {},
  ...before: Step[]
): Promise<{ outcome: SmsReplyOutcome }> {
  await logSteps(ctx, ...before, outcomeStep(outcome, details));
  return { outcome };
}

/** The last 10 messages with this phone (SPEC §9 backend context), oldest first, as chat turns. */
async function history(ctx: Context): Promise<ChatTurn[]> {
  const rows = await SmsMessage.find(
    {
      phone: ctx.phone,
      key: { $ne: `in:${ctx.job.messageId}` },
      $or: [{ direction: "inbound" }, { direction: "outbound", state: "sent", kind: "ai" }],
    },
    { direction: 1, message: 1 },
  )
    .sort({ created_at: -1, _id: -1 })
    .limit(LIMITS.smsBackendContext)
    .lean();
  return rows.reverse().map((r) => ({ role: r.direction === "inbound" ? "user" : "assistant", content: r.message }));
}

async function aiReply(ctx: Context, language: Language): Promise<string> {
  const persona = personaById("general");
  const request = {
    system: smsSystemPrompt(persona.systemPrompt, language),
    history: await history(ctx),
    message: ctx.job.text,
    language,
    persona: persona.id,
  };
  let text = "";
  try {
    for await (const delta of ctx.deps.chat.stream(request)) text += delta;
  } catch (error) {
    // SPEC §8: backend AI errors fall back to the local rule-based reply.
    ctx.deps.log.warn({ err: error, messageId: ctx.job.messageId }, "chat provider failed; local reply used");
    text = "";
  }
  const cleaned = cleanMarkdown(text);
  return limitSmsReply(cleaned || (await localReply({ message: ctx.job.text, language, history: request.history })), language);
}

type ReplyKind = "ai" | "welcome" | "insufficient_funds" | "opt_out" | "opt_in";

/** Creates the outbound record once; a retry gets the one the first attempt wrote. */
async function prepareOutbound(ctx: Context, kind: ReplyKind, text: string, coins: number): Promise<SmsMessageDoc> {
  const encoding = smsEncoding(text);
  const doc = await SmsMessage.findOneAndUpdate(
    { key: `out:${ctx.job.messageId}` },
    {
      $setOnInsert: {
        direction: "outbound",
        phone: ctx.phone,
        user_id: ctx.user?.id ?? null,
        user_name: ctx.user?.name ?? "Unknown",
        message: text,
        kind,
        state: "prepared",
        coins,
        segments: encoding.segments,
        encoding: encoding.encoding,
        shortcode: ctx.job.to,
        in_reply_to: ctx.job.messageId,
        received_at: ctx.job.receivedAt,
      },
    },
    { upsert: true, returnDocument: "after" },
  ).lean<SmsMessageDoc>();
  return doc!;
}

/** The SMPP gateway answering this shortcode (SMS Config list, type MT), if any. */
async function smppGatewayFor(shortcode: string): Promise<SmsGatewayConfigDoc | null> {
  if (!shortcode) return null;
  return SmsGatewayConfig.findOne({ shortcode, smsType: "MT" }).sort({ createdAt: 1 }).lean<SmsGatewayConfigDoc>();
}

async function deliver(ctx: Context, out: SmsMessageDoc): Promise<{ channel: "http" | "smpp"; result: SendResult }> {
  const sms = { to: ctx.phone, text: out.message, reference: String(out._id) };
  if (ctx.smppGateway) {
    return { channel: "smpp", result: await ctx.deps.smpp.link(smppTargetOf(ctx.smppGateway)).submit(sms) };
  }
  if (ctx.config.gateway_url) return { channel: "http", result: await sendViaHttp(ctx.config, sms, ctx.deps.http) };
  throw new GatewayError("No SMS gateway is configured", false);
}

/**
 * Charges an AI reply (moving it to `sending`), or turns it into the insufficient-funds notice
 * when the wallet is short. Returns the record to send and the log steps to write with it.
 */
async function charge(ctx: Context, prepared: SmsMessageDoc): Promise<{ out: SmsMessageDoc; steps: Step[] }> {
  try {
    const entry = await debit(
      ctx.user!.id,
      prepared.coins,
      `sms-reply:${ctx.job.messageId}`,
      "sms",
      `SMS reply ${prepared.segments} segment(s)`,
    );
    if (!entry.replayed && entry.balanceAfter !== null) {
      ctx.deps.pusher?.toUser(String(ctx.user!.id), "wallet:updated", { coins: entry.balanceAfter, reason: "sms" });
    }
    const out = await SmsMessage.findOneAndUpdate(
      { _id: prepared._id, state: "prepared" },
      { $set: { state: "sending" } },
      { returnDocument: "after" },
    ).lean<SmsMessageDoc>();
    if (!out) throw new Error("outbound record changed underneath; retrying");
    return { out, steps: [] };
  } catch (error) {
    if (!(error instanceof InsufficientCoinsError)) throw error;
    const notice = ctx.config.insufficient_funds_message;
    const encoding = smsEncoding(notice);
    const out = await SmsMessage.findOneAndUpdate(
      { _id: prepared._id, state: "prepared" },
      {
        $set: {
          kind: "insufficient_funds",
          message: notice,
          coins: 0,
          segments: encoding.segments,
          encoding: encoding.encoding,
          state: "sending",
        },
      },
      { returnDocument: "after" },
    ).lean<SmsMessageDoc>();
    if (!out) throw new Error("outbound record changed underneath; retrying");
    return {
      out,
      steps: [
        ["sms_processed", "insufficient", { result: "insufficient_funds", needed: error.needed, available: error.available }],
      ],
    };
  }
}

/** Charges (AI replies only) and sends the prepared reply, resuming from its recorded state. */
async function chargeAndSend(ctx: Context, prepared: SmsMessageDoc): Promise<{ outcome: SmsReplyOutcome }> {
  if (prepared.state === "sent") return finish(ctx, "replied", { kind: prepared.kind });
  if (prepared.state === "failed") return finish(ctx, "delivery_failed", { kind: prepared.kind });

  let out = prepared;
  const steps: Step[] = [];
  if (out.kind === "ai" && out.state === "prepared") {
    const charged = await charge(ctx, out);
    out = charged.out;
    steps.push(...charged.steps);
  }

  try {
    const { channel, result } = await deliver(ctx, out);
    await SmsMessage.updateOne(
      { _id: out._id },
      {
        $set: {
          state: "sent",
          channel,
          gateway_response: result.response,
          gateway_message_id: result.gatewayMessageId,
          sent_at: new Date(),
        },
      },
    );
    const sent: Step = [
      "sms_reply_sent",
      "reply_sent",
      {
        kind: out.kind,
        reply: out.message,
        coins: out.coins,
        segments: out.segments,
        encoding: out.encoding,
        channel,
        gateway_message_id: result.gatewayMessageId,
      },
    ];
    return finish(ctx, "replied", { kind: out.kind, coins: out.coins }, ...steps, sent);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    await SmsMessage.updateOne(
      { _id: out._id },
      { $set: { state: "failed", gateway_response: error.response || error.message } },
    );
    let refunded = 0;
    if (out.kind === "ai" && out.coins > 0 && ctx.user) {
      await credit(ctx.user.id, out.coins, `sms-refund:${ctx.job.messageId}`, "refund", "SMS reply not delivered", "worker");
      refunded = out.coins;
    }
    return finish(ctx, "delivery_failed", { kind: out.kind, error: error.message, refunded }, ...steps);
  }
}

async function findSubscriber(phone: string): Promise<Subscriber | null> {
  const user = await User.findOne({ phone: { $in: phoneVariants(phone) } }, { phone: 1, displayName: 1, isActive: 1 }).lean<{
    _id: Types.ObjectId;
    phone: string;
    displayName?: string;
    isActive: boolean;
  }>();
  if (!user) return null;
  return { id: user._id, name: user.displayName || user.phone, phone: user.phone, isActive: user.isActive };
}

/** STOP / START: the opt-out changes at once; the confirmation goes out once per change. */
async function handleKeyword(ctx: Context, keyword: "stop" | "start"): Promise<{ outcome: SmsReplyOutcome } | null> {
  const language: Language = isArabic(ctx.job.text) ? "ar" : "en";
  if (keyword === "stop") {
    const doc = await SmsOptOut.findOneAndUpdate(
      { phone: ctx.phone },
      { $setOnInsert: { message_id: ctx.job.messageId } },
      { upsert: true, returnDocument: "after", lean: true },
    );
    if (doc?.message_id !== ctx.job.messageId) return finish(ctx, "opted_out", { keyword, note: "already opted out" });
    await logSteps(ctx, ["sms_processed", "opt_out", { result: "opted_out", keyword }]);
    return chargeAndSend(ctx, await prepareOutbound(ctx, "opt_out", NOTICES.opt_out[language], 0));
  }
  const removed = await SmsOptOut.deleteOne({ phone: ctx.phone });
  if (removed.deletedCount === 0) return null;
  await logSteps(ctx, ["sms_processed", "opt_in", { result: "opted_in", keyword }]);
  return chargeAndSend(ctx, await prepareOutbound(ctx, "opt_in", NOTICES.opt_in[language], 0));
}

export async function handleInbound(job: SmsReplyJob, deps: SmsReplyDeps): Promise<{ outcome: SmsReplyOutcome }> {
  const phone = canonicalPhone(job.from);
  // Independent reads in one go: every job pays their latency once, not six times.
  const [user, config, smppGateway, existing, done, optedOut] = await Promise.all([
    findSubscriber(phone),
    loadSmsIntegrationConfig(),
    smppGatewayFor(job.to),
    SmsMessage.findOne({ key: `out:${job.messageId}` }).lean<SmsMessageDoc>(),
    SmsLog.exists({ key: `${job.messageId}:processed` }),
    SmsOptOut.exists({ phone }),
  ]);
  const ctx: Context = { job, phone, user, deps, config, smppGateway };

  await Promise.all([
    SmsMessage.updateOne(
      { key: `in:${job.messageId}` },
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

  if (!(await allowedByRateLimit(deps.redis, phone, job.messageId, config.rate_limit_per_minute))) {
    return finish(ctx, "rate_limited", { limit_per_minute: config.rate_limit_per_minute });
  }

  if (!user) {
    await logSteps(ctx, ["unknown_user_sms", "unknown_user", { text: job.text }]);
    return chargeAndSend(ctx, await prepareOutbound(ctx, "welcome", config.welcome_message, 0));
  }
  if (!user.isActive) return finish(ctx, "user_inactive");
  if (!config.auto_reply_enabled) return finish(ctx, "auto_reply_disabled");

  const language: Language = isArabic(job.text) ? "ar" : "en";
  const [reply, { pricing }] = await Promise.all([aiReply(ctx, language), loadWalletTables()]);
  const coins = priceOf({ feature: "sms", text: reply }, pricing);
  return chargeAndSend(ctx, await prepareOutbound(ctx, "ai", reply, coins));
}

/** The last attempt failed: the administrator still sees an outcome for the message. */
async function recordFailure(job: SmsReplyJob, error: unknown): Promise<void> {
  await SmsLog.updateOne(
    { key: `${job.messageId}:processed` },
    {
      $setOnInsert: {
        action: "sms_processed",
        user_id: null,
        user_name: "",
        phone: canonicalPhone(job.from),
        message_id: job.messageId,
        details: JSON.stringify({ result: "failed", error: error instanceof Error ? error.message : String(error) }),
      },
    },
    { upsert: true },
  );
}

export const smsReplyProcessor =
  (ctx: WorkerContext): Processor =>
  async (job: Job) => {
    const parsed = smsReplyJobSchema.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(`bad sms-reply payload: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    }
    try {
      return await handleInbound(parsed.data, smsDeps(ctx));
    } catch (error) {
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (lastAttempt) await recordFailure(parsed.data, error).catch(() => undefined);
      throw error;
    }
  };
