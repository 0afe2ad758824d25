/**
 * The outbound reply: recorded once (prepared → sending → sent | failed), charged when it is an
 * AI reply, and delivered through the shortcode's SMPP gateway or the HTTP gateway.
 */
import { randomBytes } from "node:crypto";
import { UnrecoverableError } from "bullmq";
import { DAILY_CAP_SMS, isArabic, SMS_RECEIPT_PATH, smsEncoding } from "@storefront/shared";
import {
  credit,
  DailyCapError,
  debit,
  InsufficientCoinsError,
  LedgerEntry,
  noticeLowBalance,
  RECEIPT_TOKEN_LIFETIME_MS,
  receiptTokenHash,
  RecordCache,
  SmsGatewayConfig,
  SmsMessage,
  type SmsGatewayConfigDoc,
  type SmsMessageDoc,
} from "@storefront/shared/server";
import { sendViaHttp } from "../../gateways/http";
import { smppTargetOf, smscOf } from "../../gateways/smpp";
import { GatewayError, type SendResult } from "../../gateways/types";
import { finish, type Step } from "./log";
import { applyParkedReceipt } from "./receipts";
import type { Context, SmsReplyOutcome } from "./types";

type ReplyKind = "ai" | "welcome" | "insufficient_funds" | "daily_cap" | "opt_out" | "opt_in" | "low_balance" | "phone_code";

/** Creates the outbound record once; a retry gets the one the first attempt wrote. */
export async function prepareOutbound(ctx: Context, kind: ReplyKind, text: string, coins: number): Promise<SmsMessageDoc> {
  const encoding = smsEncoding(text);
  const doc = await SmsMessage.findOneAndUpdate(
    { key: `out:${ctx.key}` },
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
        in_reply_to: ctx.inReplyTo,
        received_at: ctx.job.receivedAt,
      },
    },
    { upsert: true, returnDocument: "after" },
  ).lean<SmsMessageDoc>();
  return doc!;
}

/**
 * The oldest sending (MT) gateway of the SMS Config list for a shortcode ("" for any), read once
 * per process until an administrator saves or deletes a gateway (the API publishes the change).
 * Every message looks it up; it changes a few times a year.
 */
const oldestMtGateway = new RecordCache<SmsGatewayConfigDoc | null>("sms-gateways", (shortcode) =>
  SmsGatewayConfig.findOne({ ...(shortcode ? { shortcode } : {}), smsType: "MT" })
    .sort({ createdAt: 1 })
    .lean<SmsGatewayConfigDoc>()
    .exec(),
);

/** The SMPP gateway answering this shortcode (SMS Config list, type MT), if any. */
export async function smppGatewayFor(shortcode: string): Promise<SmsGatewayConfigDoc | null> {
  if (!shortcode) return null;
  return oldestMtGateway.get(shortcode);
}

/** The SMPP gateway of a message that answers none (a low-balance SMS): the oldest of any shortcode. */
export function anySmppGateway(): Promise<SmsGatewayConfigDoc | null> {
  return oldestMtGateway.get("");
}

/**
 * Kannel and Jasmin send a message's receipt to the URL it was sent with: a fresh unguessable token
 * per send, its hash stored on the record first (a receipt can come before the send returns).
 */
async function receiptUrlFor(ctx: Context, out: SmsMessageDoc): Promise<string | null> {
  const base = ctx.deps.http.receiptBaseUrl;
  if (ctx.config.gateway_format === "json" || !base) return null;
  const token = randomBytes(24).toString("base64url");
  await SmsMessage.updateOne(
    { _id: out._id },
    {
      $push: { receipt_token_hashes: receiptTokenHash(token) },
      $set: { receipt_tokens_until: new Date(Date.now() + RECEIPT_TOKEN_LIFETIME_MS) },
    },
  );
  return `${base.replace(/\/+$/u, "")}/api${SMS_RECEIPT_PATH}?t=${token}`;
}

async function deliver(
  ctx: Context,
  out: SmsMessageDoc,
): Promise<{ channel: "http" | "smpp"; result: SendResult; smsc: string | null }> {
  // To the record's own phone: a record is its message's reply, whichever job resumes it.
  const sms = { to: out.phone, text: ctx.secretText ?? out.message, reference: String(out._id) };
  if (ctx.smppGateway) {
    const target = smppTargetOf(ctx.smppGateway);
    return { channel: "smpp", result: await ctx.deps.smpp.link(target).submit(sms), smsc: smscOf(target) };
  }
  if (ctx.config.gateway_url) {
    const receiptUrl = await receiptUrlFor(ctx, out);
    const result = await sendViaHttp(ctx.config, { ...sms, ...(receiptUrl ? { receiptUrl } : {}) }, ctx.deps.http);
    return { channel: "http", result, smsc: null };
  }
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
      `sms-reply:${ctx.key}`,
      "sms",
      `SMS reply ${prepared.segments} segment(s)`,
      ctx.user!.dailyCap,
    );
    if (!entry.replayed && entry.balanceAfter !== null) {
      ctx.deps.pusher?.toUser(String(ctx.user!.id), "wallet:updated", { coins: entry.balanceAfter, reason: "sms" });
      await noticeLowBalance(
        { pusher: ctx.deps.pusher, smsQueue: ctx.deps.smsQueue },
        {
          id: String(ctx.user!.id),
          threshold: ctx.user!.lowBalanceThreshold ?? ctx.deps.lowBalance?.threshold ?? 0,
          smsAlerts: ctx.user!.smsAlerts,
          language: isArabic(ctx.job.text) ? "ar" : "en",
        },
        entry.balanceAfter,
        entry.lowBalanceAlerted,
      );
    }
    const out = await SmsMessage.findOneAndUpdate(
      { _id: prepared._id, state: "prepared" },
      { $set: { state: "sending" } },
      { returnDocument: "after" },
    ).lean<SmsMessageDoc>();
    if (!out) throw new Error("outbound record changed underneath; retrying");
    return { out, steps: [] };
  } catch (error) {
    if (error instanceof InsufficientCoinsError) {
      return replaceWithNotice(ctx, prepared, "insufficient_funds", ctx.config.insufficient_funds_message, [
        "sms_processed",
        "insufficient",
        { result: "insufficient_funds", needed: error.needed, available: error.available },
      ]);
    }
    if (error instanceof DailyCapError) {
      const text = DAILY_CAP_SMS[isArabic(ctx.job.text) ? "ar" : "en"].replace("{cap}", String(error.cap));
      return replaceWithNotice(ctx, prepared, "daily_cap", text, [
        "sms_processed",
        "daily_cap",
        { result: "daily_cap", cap: error.cap, spent: error.spent, needed: error.needed },
      ]);
    }
    throw error;
  }
}

/** The AI reply could not be charged: the prepared record becomes a free notice saying why. */
async function replaceWithNotice(
  ctx: Context,
  prepared: SmsMessageDoc,
  kind: ReplyKind,
  notice: string,
  step: Step,
): Promise<{ out: SmsMessageDoc; steps: Step[] }> {
  const encoding = smsEncoding(notice);
  const out = await SmsMessage.findOneAndUpdate(
    { _id: prepared._id, state: "prepared" },
    { $set: { kind, message: notice, coins: 0, segments: encoding.segments, encoding: encoding.encoding, state: "sending" } },
    { returnDocument: "after" },
  ).lean<SmsMessageDoc>();
  if (!out) throw new Error("outbound record changed underneath; retrying");
  return { out, steps: [step] };
}

/**
 * Charges (AI replies only) and sends the prepared reply, resuming from its recorded state;
 * `decided` are the log steps of why this reply was chosen, written with its send.
 */
export async function chargeAndSend(
  ctx: Context,
  prepared: SmsMessageDoc,
  decided: Step[] = [],
): Promise<{ outcome: SmsReplyOutcome }> {
  if (prepared.state === "sent") return finish(ctx, "replied", { kind: prepared.kind });
  if (prepared.state === "failed") return finish(ctx, "delivery_failed", { kind: prepared.kind });

  let out = prepared;
  const steps: Step[] = [...decided];
  if (out.kind === "ai" && out.state === "prepared") {
    // Charged to its own sender only: a record of another phone is not this message's reply.
    if (out.phone !== ctx.phone) throw new UnrecoverableError("the outbound record under this key is another phone's");
    const charged = await charge(ctx, out);
    out = charged.out;
    steps.push(...charged.steps);
  }

  try {
    const { channel, result, smsc } = await deliver(ctx, out);
    await SmsMessage.updateOne(
      { _id: out._id },
      {
        $set: {
          state: "sent",
          channel,
          gateway_response: result.response,
          gateway_message_id: result.gatewayMessageId,
          ...(result.partIds?.length ? { gateway_part_ids: result.partIds } : {}),
          ...(smsc ? { gateway_smsc: smsc } : {}),
          sent_at: new Date(),
        },
      },
    );
    if (smsc && result.gatewayMessageId) {
      // The message is sent and recorded: a Redis failure here must not fail the job (its retry
      // would stop at "sent" without logging the send). The parked receipt then simply expires.
      await applyParkedReceipt(smsc, result.gatewayMessageId, result.partIds ?? [], ctx.deps.redis).catch((err: unknown) =>
        ctx.deps.log.warn({ err, gatewayMessageId: result.gatewayMessageId }, "early delivery receipt not applied"),
      );
    }
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
      const charge = await LedgerEntry.findOne({ key: `sms-reply:${ctx.key}` }, { spendDay: 1 }).lean<{
        spendDay?: string | null;
      }>();
      await credit(
        ctx.user.id,
        out.coins,
        `sms-refund:${ctx.key}`,
        "refund",
        "SMS reply not delivered",
        "worker",
        charge?.spendDay,
      );
      refunded = out.coins;
    }
    return finish(ctx, "delivery_failed", { kind: out.kind, error: error.message, refunded }, ...steps);
  }
}
