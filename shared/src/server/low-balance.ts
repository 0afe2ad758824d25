/**
 * The low-balance notice: when a charge leaves a balance below the user's threshold, they get one
 * "wallet:low" push (the web shows it as an in-app notice) and, when they opted in, one SMS; not
 * again until the balance has been seen at or above the threshold. The flag on the user is flipped
 * by one conditional update, so concurrent charges crossing together send one notice.
 *
 * The API calls this after the charges it takes, the sms-reply worker after the SMS replies it
 * charges; both hand the SMS to the "sms-reply" queue, whose worker sends it (alert.ts there).
 */
import type { Queue } from "bullmq";
import type { Language } from "../constants";
import type { SmsAlertJob } from "../schemas/sms-integration";
import { smsJobOptions } from "./jobs";
import { User } from "./models/index";
import type { Pusher } from "./realtime";

/** Whom the notice is for, with their settings as the caller knows them. */
export interface LowBalanceUser {
  id: string;
  /** Their own threshold or the configured default; 0 turns the notice off. */
  threshold: number;
  smsAlerts: boolean;
  /** The language of the call that charged them: the SMS is written in it. */
  language?: Language;
}

export interface LowBalanceDeps {
  pusher: Pusher | null;
  /** The "sms-reply" queue; without it no SMS goes out (the push still does). */
  smsQueue?: Queue | null;
}

export type LowBalanceOutcome = "alerted" | "cleared" | "unchanged";

/** The BullMQ job id of crossing `alertId`'s SMS (BullMQ ids cannot contain ":"). */
export const smsAlertJobId = (alertId: string): string => `low-balance-${alertId}`;

/**
 * `alerted` is the flag as the charge's own update left it (AppliedEntry.lowBalanceAlerted): with
 * it, a balance above the threshold with no flag to clear, or below it with the notice already
 * sent, needs no write at all, which is every charge but the ones around a crossing.
 */
export async function noticeLowBalance(
  deps: LowBalanceDeps,
  user: LowBalanceUser,
  balance: number,
  alerted?: boolean,
): Promise<LowBalanceOutcome> {
  const { id, threshold } = user;
  if (threshold <= 0) return "unchanged";
  const below = balance < threshold;
  // Above with no flag to clear, or below with the notice already sent.
  if (alerted === below) return "unchanged";
  // Both updates test the balance as it is now, not as this call saw it: concurrent charges answer
  // out of order, and a late "still above" must not clear the flag another charge just set.
  if (!below) {
    const cleared = await User.updateOne(
      { _id: id, lowBalanceAlerted: true, coins: { $gte: threshold } },
      { $set: { lowBalanceAlerted: false } },
    );
    return cleared.modifiedCount === 1 ? "cleared" : "unchanged";
  }
  // The flip also numbers the crossing: the SMS of crossing n is alert "<user>-<n>", one job id.
  const flipped = await User.findOneAndUpdate(
    { _id: id, lowBalanceAlerted: { $ne: true }, coins: { $lt: threshold } },
    { $set: { lowBalanceAlerted: true }, $inc: { lowBalanceAlerts: 1 } },
    { projection: { lowBalanceAlerts: 1 }, returnDocument: "after" },
  ).lean<{ lowBalanceAlerts: number }>();
  if (!flipped) return "unchanged";
  deps.pusher?.toUser(id, "wallet:low", { coins: balance, threshold });
  if (user.smsAlerts && deps.smsQueue) {
    const alert: SmsAlertJob = {
      type: "low_balance",
      alertId: `${id}-${flipped.lowBalanceAlerts}`,
      userId: id,
      coins: balance,
      threshold,
      language: user.language ?? "en",
    };
    try {
      await deps.smsQueue.add("low-balance", alert, smsJobOptions(smsAlertJobId(alert.alertId)));
    } catch {
      // Not queued (Redis is out): put the flag back, so the next charge below the threshold
      // tries again instead of this crossing going without its SMS. The charge itself stands.
      await User.updateOne({ _id: id, lowBalanceAlerted: true }, { $set: { lowBalanceAlerted: false } }).catch(() => undefined);
    }
  }
  return "alerted";
}
