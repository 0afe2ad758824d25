/**
 * The one owner of package assignments (SPEC §4): a package an administrator gives
 * (admin/user-packages.php) or a subscriber buys (wallet/buy.php) is recorded here with the
 * package's terms copied in, credited its first period once, paid (a purchase), renewed period by
 * period and ended here. Coins move only through the ledger, under one key per assignment and
 * period (assignmentCreditKey), so any step run again credits nothing twice. Reads (lists, the
 * renewal schedule's queries, analytics) never write.
 *
 * A purchase: recorded active with `payment: "pending"` (its unique active key refuses a second
 * copy of a package the subscriber holds) with the billing and number it is charged through, the
 * operator charged with the purchase key (idempotent on its side), then deleted when declined, or
 * marked paid and credited. A crash in between is finished by the same request retried or by the
 * renewal schedule (settlePurchase again), which always asks the billing: a pending purchase may
 * already be charged, so it is never ended unasked.
 */
import { Types } from "mongoose";
import { SUBSCRIPTION_PERIOD_MS, type SubscriptionType } from "../constants";
import { credit, type AppliedEntry } from "./ledger/index";
import {
  PackageAssignmentModel,
  activeAssignmentKey,
  assignmentCreditKey,
  type PackageAssignmentDoc,
} from "./models/package-assignment";
import type { WalletPackageDoc } from "./models/package";
import { User } from "./models/user";
import { operatorBilling, type OperatorBilling } from "./billing/index";
import type { Pusher } from "./realtime";

/** A unique key refused the write: the package is already active for the user, or the purchase key was used. */
export class AssignmentTaken extends Error {
  constructor() {
    super("the package is already active for this user");
  }
}

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number } | null)?.code === 11000;
}

export interface NewAssignment {
  userId: string;
  pkg: WalletPackageDoc;
  autoRenew: boolean;
  /** End of the first period; by default one period of the package after `now`. */
  expiresAt?: Date | null | undefined;
  now: Date;
  /** "admin:<id>" or "user:<id>". */
  assignedBy: string;
  /** A subscriber's purchase: its request key; the assignment waits for its payment. */
  purchaseKey?: string;
  /** A purchase: the billing (name) it is charged through and the proven number billed. */
  billing?: string;
  billedPhone?: string;
}

/** Records an active assignment of the package, its first period not yet credited. Throws AssignmentTaken. */
export async function createAssignment(input: NewAssignment): Promise<PackageAssignmentDoc> {
  const { pkg, userId } = input;
  const subscriptionType = pkg.subscriptionType as SubscriptionType;
  try {
    const doc = await PackageAssignmentModel.create({
      userId,
      packageId: pkg._id,
      packageName: pkg.name,
      coins: pkg.coins,
      price: pkg.price,
      subscriptionType,
      isActive: true,
      activeKey: activeAssignmentKey(userId, pkg._id),
      autoRenew: input.autoRenew,
      expiresAt: input.expiresAt ?? new Date(input.now.getTime() + SUBSCRIPTION_PERIOD_MS[subscriptionType]),
      creditPending: pkg.coins > 0,
      assignedBy: input.assignedBy,
      ...(input.purchaseKey
        ? { purchaseKey: input.purchaseKey, payment: "pending", billing: input.billing, billedPhone: input.billedPhone }
        : {}),
    });
    return doc.toObject() as PackageAssignmentDoc;
  } catch (error) {
    if (isDuplicateKey(error)) throw new AssignmentTaken();
    throw error;
  }
}

/** The purchase made with this request key, or null. */
export function findPurchase(purchaseKey: string): Promise<PackageAssignmentDoc | null> {
  return PackageAssignmentModel.findOne({ purchaseKey }).lean<PackageAssignmentDoc>();
}

/**
 * Records a subscriber's purchase of the package, awaiting its payment; two requests with one key
 * at once get the record the first one made. Returns it and whether this call made it, or null
 * when the subscriber already holds the package (bought with another key, or given).
 */
export async function openPurchase(input: {
  userId: string;
  pkg: WalletPackageDoc;
  purchaseKey: string;
  now: Date;
  /** The billing that will charge it and the subscriber's proven number (checked before: purchaseRefusal). */
  billing: string;
  billedPhone: string;
}): Promise<{ purchase: PackageAssignmentDoc; opened: boolean } | null> {
  const { userId, pkg, purchaseKey, now, billing, billedPhone } = input;
  try {
    const purchase = await createAssignment({
      userId,
      pkg,
      autoRenew: pkg.autoRenew,
      now,
      assignedBy: buyerOf(userId),
      purchaseKey,
      billing,
      billedPhone,
    });
    return { purchase, opened: true };
  } catch (error) {
    if (!(error instanceof AssignmentTaken)) throw error;
    const other = await findPurchase(purchaseKey);
    return other ? { purchase: other, opened: false } : null;
  }
}

/**
 * Credits the coins of the first period (once: its ledger key), then marks them credited.
 * The ledger's entry, or null for a package without coins.
 */
export async function creditFirstPeriod(
  assignment: Pick<PackageAssignmentDoc, "_id" | "userId" | "coins">,
  reason: string,
  actor: string,
): Promise<AppliedEntry | null> {
  const entry =
    assignment.coins > 0
      ? await credit(assignment.userId, assignment.coins, assignmentCreditKey(assignment._id, 0), "credit", reason, actor)
      : null;
  await PackageAssignmentModel.updateOne({ _id: assignment._id }, { creditPending: false });
  return entry;
}

/**
 * Takes back up the user's assignment of this package removed within its paid period (same
 * period, same ledger keys: nothing is credited again). Null when there is none; throws
 * AssignmentTaken when the package is active again meanwhile.
 */
export async function resumeRemovedAssignment(
  input: { userId: string; packageId: string; autoRenew: boolean; assignedBy: string },
  now: Date,
): Promise<{ before: PackageAssignmentDoc; after: PackageAssignmentDoc } | null> {
  const resumable = { isActive: false, endedReason: "removed", expiresAt: { $gt: now } };
  const before = await PackageAssignmentModel.findOne({
    userId: new Types.ObjectId(input.userId),
    packageId: new Types.ObjectId(input.packageId),
    ...resumable,
  })
    .sort({ expiresAt: -1 })
    .lean<PackageAssignmentDoc>();
  if (!before) return null;
  let after: PackageAssignmentDoc | null;
  try {
    after = await PackageAssignmentModel.findOneAndUpdate(
      { _id: before._id, ...resumable },
      {
        $set: {
          isActive: true,
          activeKey: activeAssignmentKey(input.userId, input.packageId),
          autoRenew: input.autoRenew,
          endedAt: null,
          endedReason: null,
          assignedBy: input.assignedBy,
        },
      },
      { returnDocument: "after" },
    ).lean<PackageAssignmentDoc>();
  } catch (error) {
    if (isDuplicateKey(error)) throw new AssignmentTaken();
    throw error;
  }
  return after ? { before, after } : null;
}

/**
 * Why an assignment ended. `billing_unavailable` and `phone_unproven`: its renewal was never sent to
 * the billing (a purchase the billing no longer sells; an unproven number a collecting billing
 * would bill), so the balance was kept; `renewal_failed`: the charge failed, the balance was reset.
 */
export type EndReason = "removed" | "expired" | "renewal_failed" | "user_inactive" | "billing_unavailable" | "phone_unproven";

/**
 * Ends an active assignment (within `period` when given, so a renewal that moved it meanwhile
 * wins): the coins already credited stay, it stops renewing. The assignment as it was, or null
 * when it was not active (in that period).
 */
export function endAssignment(
  id: string | Types.ObjectId,
  reason: EndReason,
  now: Date,
  period?: number,
): Promise<PackageAssignmentDoc | null> {
  return PackageAssignmentModel.findOneAndUpdate(
    { _id: id, isActive: true, ...(period === undefined ? {} : { period }) },
    { $set: { isActive: false, endedAt: now, endedReason: reason }, $unset: { activeKey: 1 } },
    { returnDocument: "before" },
  ).lean<PackageAssignmentDoc>();
}

/** Moves a paid renewal to its next period, unless another run already did. */
export async function advancePeriod(assignment: PackageAssignmentDoc, expiresAt: Date, now: Date): Promise<boolean> {
  const moved = await PackageAssignmentModel.updateOne(
    { _id: assignment._id, isActive: true, period: assignment.period },
    { period: assignment.period + 1, expiresAt, lastRenewedAt: now },
  );
  return moved.modifiedCount === 1;
}

/** Who a subscriber's own purchase is assigned by (an administrator's assignment says "admin:<id>"). */
export const buyerOf = (userId: string) => `user:${userId}`;

/**
 * The subscriber turns the renewal of one of their running packages on or off; null when it is
 * not theirs or not running. On only for a package they bought: an administrator's assignment
 * renews only when the administrator chose so (a one-off grant must not become one every period).
 */
export function setAutoRenew(userId: string, id: string, autoRenew: boolean): Promise<PackageAssignmentDoc | null> {
  return PackageAssignmentModel.findOneAndUpdate(
    { _id: id, userId, isActive: true, ...(autoRenew ? { assignedBy: buyerOf(userId) } : {}) },
    { $set: { autoRenew } },
    { returnDocument: "after" },
  ).lean<PackageAssignmentDoc>();
}

/** The account's number when it is proven (phone-proof), else null: only a proven number is ever billed. */
export async function billableNumber(userId: string | Types.ObjectId): Promise<string | null> {
  const user = await User.findById(userId, { phone: 1, phoneVerifiedAt: 1 }).lean<{
    phone?: string;
    phoneVerifiedAt?: Date | null;
  }>();
  return user?.phone && user.phoneVerifiedAt ? user.phone : null;
}

/**
 * Why this billing may not charge the subscriber for their own purchase (or its renewal), or null:
 * a billing that collects nothing does not sell, and only a proven number is billed.
 */
export function purchaseRefusal(
  billing: OperatorBilling,
  phone: string | null,
): "purchases_unavailable" | "phone_unproven" | null {
  if (!billing.sellsToSubscribers) return "purchases_unavailable";
  return phone ? null : "phone_unproven";
}

/**
 * Whether a pending purchase must wait for the operator: the billing in use is not the one that
 * opened it (or, for a record that does not say, one that sells nothing could not have opened it).
 * Charging through another billing could charge twice; ending it could drop a payment taken.
 */
export function purchaseBillingChanged(purchase: Pick<PackageAssignmentDoc, "billing">, billing: OperatorBilling): boolean {
  return purchase.billing ? purchase.billing !== billing.name : !billing.sellsToSubscribers;
}

export type SettledPurchase =
  | { paid: true; purchase: PackageAssignmentDoc }
  | { paid: false; reason: string }
  /** Left pending, nothing charged here: the billing changed, or there is no number to send; the operator must look. */
  | { paid: false; pending: true; reason: "billing_changed" | "phone_unproven" };

/**
 * Charges (again, with the same key: the operator answers as the first time) a purchase not yet
 * paid, then credits a paid one whose coins are not yet in. Safe to run any number of times. A
 * pending purchase is ended only on the billing's own decline: the refusals (not on sale, number
 * not proven) are checked before it is opened (wallet/buy.php), since once opened its charge may
 * already have been sent.
 */
export async function settlePurchase(
  purchase: PackageAssignmentDoc,
  pusher?: Pick<Pusher, "toUser">,
  billing: OperatorBilling = operatorBilling(),
): Promise<SettledPurchase> {
  let current = purchase;
  if (current.payment === "pending") {
    if (purchaseBillingChanged(current, billing)) return { paid: false, pending: true, reason: "billing_changed" };
    // The number it was billed to; a record from before that was kept: the account's proven number
    // (a proven number is never unproven again, only replaced by another proven one).
    const phone = current.billedPhone ?? (await billableNumber(current.userId));
    if (!phone) return { paid: false, pending: true, reason: "phone_unproven" };
    const answer = await billing.charge({
      key: current.purchaseKey!,
      userId: String(current.userId),
      phone,
      amount: current.price,
      description: `Package ${current.packageName}`,
    });
    if (!answer.ok) {
      await PackageAssignmentModel.deleteOne({ _id: current._id, payment: "pending" });
      return { paid: false, reason: answer.error };
    }
    const paid = await PackageAssignmentModel.findOneAndUpdate(
      { _id: current._id },
      { $set: { payment: "paid", paymentReference: answer.reference } },
      { returnDocument: "after" },
    ).lean<PackageAssignmentDoc>();
    // Gone meanwhile (another settle ended it): nothing to credit; never credit from the stale copy.
    if (!paid) return { paid: false, reason: "purchase_ended" };
    current = paid;
  }
  if (current.creditPending && current.coins > 0) {
    const entry = await creditFirstPeriod(current, `purchase:${current.packageName}`, `user:${String(current.userId)}`);
    current = { ...current, creditPending: false };
    if (entry && entry.balanceAfter !== null && !entry.replayed)
      pusher?.toUser(String(current.userId), "wallet:updated", { coins: entry.balanceAfter, reason: "purchase" });
  }
  return { paid: true, purchase: current };
}
