/**
 * Buying a package from the Get coins page (wallet/buy.php), through the same operator billing
 * the renewals use (shared/src/server/billing). Every step is keyed by the purchase's request key
 * (the Idempotency-Key header), so a retried request charges and credits at most once:
 *
 *   0. refused before anything is written when the billing takes no payment (503
 *      purchases_unavailable, OPERATOR_BILLING=offline) or the number is not proven (403
 *      phone_unproven): only a proven number is ever billed;
 *   1. the purchase is recorded as an active assignment with `payment: "pending"` (its unique
 *      active key also refuses a second copy of a package the subscriber already holds);
 *   2. the operator is charged with the purchase key (idempotent on its side);
 *   3. declined: the purchase is deleted, nothing was credited; taken: `payment: "paid"`, then the
 *      coins are credited under the assignment's period-0 ledger key, and the balance is pushed.
 *
 * Once recorded, a purchase is only finished by asking the billing that opened it (its name is
 * stored): a pending one may already be charged, so it is never ended unasked; under another
 * billing it stays pending (503 payment_pending) for the operator.
 *
 * A crash after 1 or 2 is finished by the same request retried, or by the renewal schedule
 * (finishPendingPurchases), which charges again with the same key (the operator answers as the
 * first time) and credits or ends the purchase. A pending purchase is never credited. The record
 * is written only by its owner, shared/src/server/package-assignments.ts.
 */
import { Types } from "mongoose";
import type { z } from "zod";
import {
  MESSAGES,
  mySubscriptionSchema,
  shopPackageSchema,
  type BuyPackageResponse,
  type MySubscription,
  type ShopPackage,
  type WalletShopResponse,
} from "@storefront/shared";
import {
  PackageAssignmentModel,
  User,
  WalletPackageModel,
  billableNumber,
  buyerOf,
  findPurchase,
  openPurchase,
  operatorBilling,
  purchaseRefusal,
  setAutoRenew as setAssignmentAutoRenew,
  settlePurchase,
  type PackageAssignmentDoc,
  type Pusher,
  type WalletPackageDoc,
} from "@storefront/shared/server";
import { AppError, badRequest, conflict, forbidden, notFound, unavailable } from "../errors";
import { noticeBalance } from "./low-balance";
import { toAssignment, toPackage } from "./packages";

/**
 * The fields a response schema names, taken from a wider view of the same record. It cuts and
 * never judges: a stored record the back office can show (a hand-edited description of null, an
 * imported fractional amount) must not turn a paid purchase's answer into a 500.
 */
function cutTo<S extends z.ZodObject>(schema: S, view: z.output<S>): z.output<S> {
  return Object.fromEntries(Object.keys(schema.shape).map((key) => [key, view[key]])) as z.output<S>;
}

/** The subscriber's view of one of their packages: the back office's, cut to what they are shown. */
function toSubscription(doc: PackageAssignmentDoc): MySubscription {
  return cutTo(mySubscriptionSchema, { ...toAssignment(doc), bought: doc.assignedBy === buyerOf(String(doc.userId)) });
}

/** Whether the subscriber may buy (or turn a renewal on) now: the billing sells, and their number is proven. */
async function purchaseState(userId: string): Promise<WalletShopResponse["purchases"]> {
  return purchaseRefusal(operatorBilling(), await billableNumber(userId)) ?? "open";
}

/** The refusal of a purchase (or a renewal switched on) the subscriber cannot make, before anything is written. */
function refuseUnsold(state: WalletShopResponse["purchases"]): void {
  if (state === "purchases_unavailable") throw unavailable(MESSAGES.purchasesUnavailable, "purchases_unavailable");
  if (state === "phone_unproven") throw forbidden(MESSAGES.phoneUnproven, "phone_unproven");
}

/** A package as it is offered for sale (the Get coins page, the home page's prices). */
export function toShopPackage(p: WalletPackageDoc): ShopPackage {
  return cutTo(shopPackageSchema, toPackage(p));
}

/** The active packages on offer, and the subscriber's own running packages. */
export async function walletShop(userId: string): Promise<WalletShopResponse> {
  const [packages, mine, purchases] = await Promise.all([
    WalletPackageModel.find({ status: "active" }).sort({ price: 1, createdAt: 1 }).limit(100).lean<WalletPackageDoc[]>(),
    PackageAssignmentModel.find({ userId, isActive: true, payment: { $ne: "pending" } })
      .sort({ createdAt: -1 })
      .limit(50)
      .lean<PackageAssignmentDoc[]>(),
    purchaseState(userId),
  ]);
  return {
    success: true,
    purchases,
    packages: packages.map(toShopPackage),
    subscriptions: mine.map(toSubscription),
  };
}

export async function buyPackage(
  userId: string,
  packageId: string,
  purchaseKey: string,
  pusher: Pusher,
  lowBalanceThreshold = 0,
  now = new Date(),
): Promise<BuyPackageResponse> {
  /** A key already used answers as a retry only for the same subscriber and package. */
  const sameRequest = (found: PackageAssignmentDoc) => {
    if (String(found.userId) !== userId || String(found.packageId) !== packageId) {
      throw new AppError(409, "idempotency_conflict", MESSAGES.idempotencyConflict);
    }
    return found;
  };
  let purchase = await findPurchase(purchaseKey);
  let replayed = purchase !== null;
  if (purchase) sameRequest(purchase);
  else {
    const billing = operatorBilling();
    const phone = await billableNumber(userId);
    refuseUnsold(purchaseRefusal(billing, phone) ?? "open");
    const pkg = await WalletPackageModel.findById(packageId).lean<WalletPackageDoc>();
    if (!pkg || pkg.status !== "active") throw notFound("packageId: no such package on offer");
    // A request racing the first one with its key gets that one's record and answers as a retry.
    const opened = await openPurchase({ userId, pkg, purchaseKey, now, billing: billing.name, billedPhone: phone! });
    if (!opened) throw conflict(MESSAGES.packageAlreadyActive, "package_already_active");
    purchase = opened.opened ? opened.purchase : sameRequest(opened.purchase);
    replayed = !opened.opened;
  }

  const settled = await settlePurchase(purchase, pusher);
  if (!settled.paid) {
    // Not charged here (the billing that opened it is no longer the one in use), or charged while
    // another settle ended the record: either way the operator settles it, and nothing was credited.
    if ("pending" in settled || settled.reason === "purchase_ended")
      throw unavailable(MESSAGES.paymentPending, "payment_pending");
    throw new AppError(402, "payment_declined", MESSAGES.paymentDeclined, { reason: settled.reason });
  }
  const user = await User.findById(userId, { coins: 1 }).lean<{ coins: number }>();
  if (user) await noticeBalance({ pusher, config: { LOW_BALANCE_THRESHOLD: lowBalanceThreshold } }, userId, user.coins);
  return {
    success: true,
    subscription: toSubscription(settled.purchase),
    coinsAdded: settled.purchase.coins,
    coins: user?.coins ?? 0,
    replayed,
  };
}

/**
 * The subscriber turns the renewal of one of their own packages off (any), or on: only one they
 * bought (an administrator's assignment renews as the administrator chose), and only when they
 * could buy it now (the billing sells, their number is proven), as each renewal charges them.
 */
export async function setAutoRenew(userId: string, subscriptionId: string, autoRenew: boolean): Promise<MySubscription> {
  if (!Types.ObjectId.isValid(subscriptionId)) throw badRequest("subscriptionId must be a subscription id", "subscriptionId");
  if (autoRenew) {
    const running = await PackageAssignmentModel.findOne(
      { _id: subscriptionId, userId, isActive: true },
      { assignedBy: 1 },
    ).lean<{
      assignedBy?: string | null;
    }>();
    if (!running) throw notFound("subscriptionId: no such running package of yours");
    if (running.assignedBy !== buyerOf(userId)) throw forbidden(MESSAGES.renewalNotYours, "renewal_not_yours");
    refuseUnsold(await purchaseState(userId));
  }
  const updated = await setAssignmentAutoRenew(userId, subscriptionId, autoRenew);
  if (!updated) throw notFound("subscriptionId: no such running package of yours");
  return toSubscription(updated);
}
