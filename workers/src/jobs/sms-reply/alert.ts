/**
 * The low-balance SMS (queued by shared/src/server/low-balance.ts when a subscriber who opted in
 * crosses their threshold): free, to the phone of the account, through the HTTP gateway or, when
 * there is none, the first SMPP gateway of the SMS Config list. It is recorded and logged like a
 * reply (the same prepared → sent | failed record), so a retried job sends it once.
 *
 * Checked again when it is sent, since the queue may hold it for a while: the subscriber still
 * wants it, their number is proven (phone proof: an unproven one may be someone else's), the balance
 * is still below, the integration is on, the phone has not opted out, and
 * they have had fewer than LOW_BALANCE_SMS_PER_DAY today (a threshold changed back and forth
 * must not become an SMS pump we pay for).
 */
import { LOW_BALANCE_SMS, type SmsAlertJob, type SmsReplyJob } from "@storefront/shared";
import {
  loadSmsIntegrationConfig,
  smsMessageDone,
  SmsMessage,
  SmsOptOut,
  spendDayOf,
  User,
  type SmsMessageDoc,
} from "@storefront/shared/server";
import type { Types } from "mongoose";
import { finish } from "./log";
import { anySmppGateway, chargeAndSend, prepareOutbound } from "./outbound";
import { allowedLowBalanceSms } from "./rate-limit";
import { canonicalPhone } from "./subscriber";
import type { Context, SmsReplyDeps, SmsReplyOutcome } from "./types";

interface AlertUser {
  _id: Types.ObjectId;
  /** Absent once its proven owner took the number back. */
  phone?: string;
  phoneVerifiedAt?: Date | null;
  displayName?: string;
  isActive: boolean;
  coins: number;
  smsAlerts?: boolean;
  lowBalanceAlerted?: boolean;
}

/** The id its records and log rows are keyed by (the place of the gateway's message id in a reply). */
export const alertMessageId = (alert: Pick<SmsAlertJob, "alertId">): string => `low-balance:${alert.alertId}`;

export async function handleAlert(alert: SmsAlertJob, deps: SmsReplyDeps): Promise<{ outcome: SmsReplyOutcome }> {
  const messageId = alertMessageId(alert);
  const [user, config, existing, done] = await Promise.all([
    User.findById(alert.userId, {
      phone: 1,
      phoneVerifiedAt: 1,
      displayName: 1,
      isActive: 1,
      coins: 1,
      smsAlerts: 1,
      lowBalanceAlerted: 1,
    }).lean<AlertUser>(),
    loadSmsIntegrationConfig(),
    SmsMessage.findOne({ key: `out:${messageId}` }).lean<SmsMessageDoc>(),
    smsMessageDone(messageId),
  ]);
  const smppGateway = config.gateway_url ? null : await anySmppGateway();
  const phone = user?.phone ? canonicalPhone(user.phone, deps.phoneCountry) : "";
  const job: SmsReplyJob = {
    messageId,
    from: phone,
    to: smppGateway?.shortcode ?? "",
    text: "",
    receivedAt: Date.now(),
    channel: "webhook",
  };
  const ctx: Context = {
    job,
    key: messageId,
    phone,
    inReplyTo: null,
    deps,
    config,
    smppGateway,
    user: user
      ? {
          id: user._id,
          name: user.displayName || phone,
          phone,
          isActive: user.isActive,
          coins: user.coins,
          dailyCap: null,
          lowBalanceThreshold: alert.threshold,
          smsAlerts: user.smsAlerts ?? false,
        }
      : null,
  };
  const kind = { kind: "low_balance" };

  if (existing) return chargeAndSend(ctx, existing);
  if (done) return { outcome: "already_processed" };
  if (!user) return finish(ctx, "failed", { ...kind, error: "user not found" });
  if (!user.isActive) return finish(ctx, "user_inactive", kind);
  if (!user.smsAlerts) return finish(ctx, "alerts_off", kind);
  // A number the account never proved may be someone else's: their phone gets nothing of it.
  if (!user.phone || !user.phoneVerifiedAt) return finish(ctx, "phone_unproven", kind);
  // Topped up (or the crossing was reset) while it waited: the alert is no longer true.
  if (!user.lowBalanceAlerted || user.coins >= alert.threshold) return finish(ctx, "balance_restored", kind);
  if (!config.enabled) return finish(ctx, "integration_disabled", kind);
  if (await SmsOptOut.exists({ phone })) return finish(ctx, "opted_out", kind);
  const perDay = deps.lowBalance?.smsPerDay ?? 3;
  if (!(await allowedLowBalanceSms(deps.redis, alert.userId, spendDayOf(), alert.alertId, perDay))) {
    return finish(ctx, "rate_limited", { ...kind, limit_per_day: perDay });
  }

  const text = LOW_BALANCE_SMS[alert.language]
    .replace("{coins}", String(alert.coins))
    .replace("{threshold}", String(alert.threshold));
  return chargeAndSend(ctx, await prepareOutbound(ctx, "low_balance", text, 0));
}
