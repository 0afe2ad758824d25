/**
 * Package renewal (SPEC §4): at expiry an auto-renewing assignment is paid through operator
 * billing and its coins credited for the next period (daily 24 h, weekly 7 d, monthly 30 d);
 * when billing fails the balance resets to 0 and the assignment ends. A renewal that is never sent
 * to the billing ends without a reset (nothing was charged, so nothing failed): a subscriber's own
 * purchase under a billing that sells nothing (`billing_unavailable`), or an unproven or missing
 * number when a billing that collects would bill a price (`phone_unproven`). A renewal that collects
 * nothing (an administrator's package under a billing that does not collect, or at price 0) needs
 * no proof: with no billable number it is credited without a billing call. An expired assignment
 * without auto-renew simply ends. Every step is idempotent (billing and
 * ledger keys per assignment and period, conditional updates), so a crash or two schedulers at
 * once are safe.
 */
import type { Types } from "mongoose";
import { SUBSCRIPTION_PERIOD_MS, type SubscriptionType } from "@storefront/shared";
import {
  IdempotencyConflictError,
  PackageAssignmentModel,
  User,
  advancePeriod,
  assignmentCreditKey,
  buyerOf,
  credit,
  creditFirstPeriod,
  endAssignment,
  setBalance,
  settlePurchase,
  type EndReason,
  type Logger,
  type PackageAssignmentDoc,
  type Pusher,
} from "@storefront/shared/server";
import type { OperatorBilling } from "@storefront/shared/server";

export interface RenewalDeps {
  billing: OperatorBilling;
  pusher?: Pick<Pusher, "toUser">;
  log?: Pick<Logger, "info" | "warn" | "error">;
  /** The clock; tests move it forward. */
  now?: Date;
  /** Assignments handled per run; the next run takes the rest. */
  batch?: number;
  /** Only this user's assignments (support tooling, and tests sharing a database). */
  userId?: string;
}

export interface RenewalReport {
  renewed: number;
  failed: number;
  /** Ended before any charge (billing_unavailable, phone_unproven): the balance is kept. */
  stopped: number;
  expired: number;
  /** First-period credits left unfinished by a crash in admin/user-packages.php, now applied. */
  creditsFinished: number;
  /** Subscribers' purchases a crash left between recording and crediting, now paid and credited or ended. */
  purchasesFinished: number;
}

/** How long an assignment's first credit may stay pending before the schedule finishes it. */
const PENDING_CREDIT_GRACE_MS = 60_000;

/** Ends the assignment in the period it was read in; false when another run moved or ended it first. */
async function endPeriod(a: PackageAssignmentDoc, reason: EndReason, now: Date) {
  return (await endAssignment(a._id, reason, now, a.period)) !== null;
}

async function finishPendingCredits(now: Date, batch: number, scope: Record<string, unknown>): Promise<number> {
  const pending = await PackageAssignmentModel.find({
    ...scope,
    creditPending: true,
    // A purchase is credited only once paid (finishPendingPurchases).
    payment: { $ne: "pending" },
    createdAt: { $lt: new Date(now.getTime() - PENDING_CREDIT_GRACE_MS) },
  })
    .limit(batch)
    .lean<PackageAssignmentDoc[]>();
  let finished = 0;
  for (const a of pending) {
    const entry = await creditFirstPeriod(a, `package:${a.packageName}`, "scheduler");
    if (entry && !entry.replayed) finished += 1;
  }
  return finished;
}

/**
 * Purchases whose request died between recording and crediting: charged again with their own key
 * (the operator answers as the first time), then credited, or ended when declined. Never ended
 * unasked (the charge may have been taken). One opened by another billing than the one in use is
 * left pending and reported as an error for the operator, never charged through this one.
 */
async function finishPendingPurchases(
  deps: RenewalDeps,
  now: Date,
  batch: number,
  scope: Record<string, unknown>,
): Promise<number> {
  const stale = { ...scope, payment: "pending", createdAt: { $lt: new Date(now.getTime() - PENDING_CREDIT_GRACE_MS) } };
  // Opened by this billing; records that do not say which are this billing's only when it sells.
  const ours = deps.billing.sellsToSubscribers ? { billing: { $in: [deps.billing.name, null] } } : { billing: deps.billing.name };
  const pending = await PackageAssignmentModel.find({ ...stale, ...ours })
    .sort({ createdAt: 1 })
    .limit(batch)
    .lean<PackageAssignmentDoc[]>();
  let finished = 0;
  for (const purchase of pending) {
    const settled = await settlePurchase(purchase, deps.pusher, deps.billing);
    if (settled.paid || !("pending" in settled)) finished += 1;
    if (!settled.paid && settled.reason === "purchase_ended")
      deps.log?.error(
        { assignmentId: String(purchase._id) },
        "purchase charged but its record was gone: check with the operator",
      );
    else if ("pending" in settled)
      deps.log?.error({ assignmentId: String(purchase._id), reason: settled.reason }, "pending purchase left unsettled");
  }
  const foreign = await PackageAssignmentModel.countDocuments({ ...stale, $nor: [ours] });
  if (foreign > 0)
    deps.log?.error(
      { purchases: foreign, operatorBilling: deps.billing.name },
      "pending purchases opened through another operator billing are left pending: settle them with that billing (docs/operations.md)",
    );
  return finished;
}

/** Resets the balance to 0 once for this assignment period, even when run again after a crash. */
async function resetBalance(userId: Types.ObjectId, assignmentId: string, period: number, reason: string): Promise<void> {
  try {
    await setBalance(userId, 0, "reset", reason, "scheduler", `reset:${assignmentId}:${period}`);
  } catch (error) {
    // The key of this period was already used: the reset happened in an earlier run.
    if (!(error instanceof IdempotencyConflictError)) throw error;
  }
}

export async function renewDueAssignments(deps: RenewalDeps): Promise<RenewalReport> {
  const now = deps.now ?? new Date();
  const batch = deps.batch ?? 200;
  const scope = deps.userId ? { userId: deps.userId } : {};
  const report: RenewalReport = {
    renewed: 0,
    failed: 0,
    stopped: 0,
    expired: 0,
    creditsFinished: await finishPendingCredits(now, batch, scope),
    purchasesFinished: await finishPendingPurchases(deps, now, batch, scope),
  };

  const due = await PackageAssignmentModel.find({
    ...scope,
    isActive: true,
    payment: { $ne: "pending" },
    expiresAt: { $lte: now },
  })
    .sort({ expiresAt: 1 })
    .limit(batch)
    .lean<PackageAssignmentDoc[]>();

  for (const a of due) {
    const id = String(a._id);
    const userId = String(a.userId);
    const user = await User.findById(a.userId, { phone: 1, phoneVerifiedAt: 1, isActive: 1, coins: 1 }).lean<{
      phone?: string;
      phoneVerifiedAt?: Date | null;
      isActive: boolean;
      coins?: number;
    }>();
    if (!a.autoRenew || !user || !user.isActive) {
      if (await endPeriod(a, a.autoRenew ? "user_inactive" : "expired", now)) report.expired += 1;
      continue;
    }

    const period = a.period + 1;
    const phone = user.phone && user.phoneVerifiedAt ? user.phone : null;
    // Stopped before any charge, the balance kept: a subscriber's own purchase when the billing
    // sells nothing, or a number not proven when a billing that collects would bill a price.
    const collects = deps.billing.sellsToSubscribers && a.price > 0;
    const stop =
      a.assignedBy === buyerOf(userId) && !deps.billing.sellsToSubscribers
        ? "billing_unavailable"
        : collects && !phone
          ? "phone_unproven"
          : null;
    if (stop) {
      if (await endPeriod(a, stop, now)) {
        report.stopped += 1;
        deps.pusher?.toUser(userId, "wallet:updated", { coins: user.coins ?? 0, reason: stop });
      }
      deps.log?.warn({ assignmentId: id, userId, reason: stop }, "package renewal not sent to the billing; ended, balance kept");
      continue;
    }
    // Nothing to collect and no billable number: renewed without a billing call (only a proven number is billed).
    const charge = phone
      ? await deps.billing.charge({
          key: `billing:${id}:${period}`,
          userId,
          phone,
          amount: a.price,
          description: `${a.packageName} (${a.subscriptionType}) renewal ${period}`,
        })
      : ({ ok: true, reference: null } as const);

    if (!charge.ok) {
      await resetBalance(a.userId, id, period, `renewal of ${a.packageName} failed: ${charge.error}`);
      if (await endPeriod(a, "renewal_failed", now)) report.failed += 1;
      deps.log?.warn({ assignmentId: id, userId, error: charge.error }, "package renewal failed; balance reset to 0");
      deps.pusher?.toUser(userId, "wallet:updated", { coins: 0, reason: "renewal_failed" });
      continue;
    }

    const entry =
      a.coins > 0
        ? await credit(a.userId, a.coins, assignmentCreditKey(id, period), "renewal", `renewal:${a.packageName}`, "scheduler")
        : null;
    const periodMs = SUBSCRIPTION_PERIOD_MS[a.subscriptionType as SubscriptionType];
    const aligned = a.expiresAt!.getTime() + periodMs;
    // Missed by more than a whole period (schedule down): start the new period now instead of back-filling.
    const expiresAt = new Date(aligned > now.getTime() ? aligned : now.getTime() + periodMs);
    if (await advancePeriod(a, expiresAt, now)) report.renewed += 1;
    if (entry?.balanceAfter != null)
      deps.pusher?.toUser(userId, "wallet:updated", { coins: entry.balanceAfter, reason: "renewal" });
    deps.log?.info({ assignmentId: id, userId, period, reference: charge.reference }, "package renewed");
  }
  return report;
}
