/** Wallet packages and their assignment to users (SPEC §2 Wallet Packages, Assign Package; §4). */
import { Types } from "mongoose";
import {
  MESSAGES,
  SUBSCRIPTION_PERIOD_MS,
  VALUE_PERMISSION,
  packageValueChange,
  roleAllows,
  type PackageTerms,
  type AssignPackageRequest,
  type PackageAssignment,
  type SubscriptionType,
  type UpdatePackageRequest,
  type WalletPackage,
  type WalletPackageFields,
} from "@storefront/shared";
import {
  PackageAssignmentModel,
  User,
  WalletPackageModel,
  activeAssignmentKey,
  assignmentCreditKey,
  credit,
  type PackageAssignmentDoc,
  type Pusher,
  type WalletPackageDoc,
} from "@storefront/shared/server";
import { badRequest, conflict, forbidden, notFound } from "../errors";
import type { AuthedAdmin } from "../middleware/auth";
import { recordAudit } from "./audit";

export function toPackage(doc: WalletPackageDoc): WalletPackage {
  return {
    id: String(doc._id),
    name: doc.name,
    coins: doc.coins,
    price: doc.price,
    subscription_type: doc.subscriptionType as SubscriptionType,
    auto_renew: doc.autoRenew,
    description: doc.description,
    status: doc.status as WalletPackage["status"],
    created_at: doc.createdAt.toISOString(),
  };
}

function toDocFields(fields: WalletPackageFields) {
  return {
    name: fields.name,
    coins: fields.coins,
    price: fields.price,
    subscriptionType: fields.subscription_type,
    autoRenew: fields.auto_renew,
    description: fields.description,
    status: fields.status,
  };
}

export async function listPackages(): Promise<WalletPackage[]> {
  const docs = await WalletPackageModel.find({}).sort({ price: 1, createdAt: 1 }).limit(500).lean<WalletPackageDoc[]>();
  return docs.map(toPackage);
}

const termsOf = (doc: { coins: number; price: number; status: string }): PackageTerms => ({
  coins: doc.coins,
  price: doc.price,
  status: doc.status === "active" ? "active" : "inactive",
});

/**
 * Why this change gives subscribers more for their money, checked against the packages on sale
 * now (docs/permissions.md): without coins:grant such a change is refused, with it the reason is
 * written in the audit entry. Null when it is an ordinary change.
 */
async function valueChange(
  admin: AuthedAdmin,
  id: string | null,
  before: PackageTerms | null,
  after: PackageTerms,
): Promise<string | null> {
  const others = await WalletPackageModel.find(
    { status: "active", price: { $gt: 0 }, coins: { $gt: 0 }, ...(id ? { _id: { $ne: id } } : {}) },
    { coins: 1, price: 1, status: 1 },
  ).lean<{ coins: number; price: number; status: string }[]>();
  const reason = packageValueChange(before, after, others.map(termsOf));
  if (reason && !roleAllows(admin.role, VALUE_PERMISSION)) {
    throw forbidden(`${MESSAGES.adminForbidden}: ${reason} needs ${VALUE_PERMISSION}`);
  }
  return reason;
}

export async function createPackage(admin: AuthedAdmin, fields: WalletPackageFields): Promise<WalletPackage> {
  const valueChanged = await valueChange(admin, null, null, termsOf(fields));
  const created = await WalletPackageModel.create(toDocFields(fields));
  const view = toPackage(created.toObject() as WalletPackageDoc);
  await recordAudit(admin, {
    action: "package.create",
    targetType: "package",
    targetId: view.id,
    before: null,
    after: valueChanged ? { ...view, value_change: valueChanged } : view,
  });
  return view;
}

/**
 * The update applies only to the terms it was judged on: a concurrent change to coins, price or
 * status in between answers 409 instead of slipping past the value check.
 */
export async function updatePackage(admin: AuthedAdmin, input: UpdatePackageRequest): Promise<WalletPackage> {
  const { id, ...fields } = input;
  const current = await WalletPackageModel.findById(id).lean<WalletPackageDoc>();
  if (!current) throw notFound("Package not found");
  const valueChanged = await valueChange(admin, id, termsOf(current), termsOf(fields));
  const before = await WalletPackageModel.findOneAndUpdate(
    { _id: id, coins: current.coins, price: current.price, status: current.status },
    toDocFields(fields),
    { returnDocument: "before" },
  ).lean<WalletPackageDoc>();
  if (!before) throw conflict("The package changed meanwhile: load it again");
  const after = await WalletPackageModel.findById(id).lean<WalletPackageDoc>();
  const view = toPackage(after!);
  await recordAudit(admin, {
    action: "package.update",
    targetType: "package",
    targetId: id,
    before: toPackage(before),
    after: valueChanged ? { ...view, value_change: valueChanged } : view,
  });
  return view;
}

/** Deleting a package leaves running assignments alone: they carry their own copy of its terms. */
export async function deletePackage(admin: AuthedAdmin, id: string): Promise<void> {
  const before = await WalletPackageModel.findOneAndDelete({ _id: id }).lean<WalletPackageDoc>();
  if (!before) throw notFound("Package not found");
  await recordAudit(admin, {
    action: "package.delete",
    targetType: "package",
    targetId: id,
    before: toPackage(before),
    after: null,
  });
}

export function toAssignment(doc: PackageAssignmentDoc): PackageAssignment {
  return {
    id: String(doc._id),
    user_id: String(doc.userId),
    package_id: String(doc.packageId),
    package_name: doc.packageName,
    coins: doc.coins,
    price: doc.price,
    subscription_type: doc.subscriptionType as SubscriptionType,
    is_active: doc.isActive,
    auto_renew: doc.autoRenew,
    expires_at: doc.expiresAt ? doc.expiresAt.toISOString() : null,
    assigned_at: doc.createdAt.toISOString(),
    renewals: doc.period,
    ended_reason: doc.endedReason ?? null,
  };
}

export async function listAssignments(query: { userId?: string; page: number; limit: number }) {
  const filter = query.userId ? { userId: new Types.ObjectId(query.userId) } : {};
  const [docs, total] = await Promise.all([
    PackageAssignmentModel.find(filter)
      .sort({ isActive: -1, createdAt: -1, _id: -1 })
      .skip((query.page - 1) * query.limit)
      .limit(query.limit)
      .lean<PackageAssignmentDoc[]>(),
    PackageAssignmentModel.countDocuments(filter),
  ]);
  return { items: docs.map(toAssignment), total, total_pages: Math.max(1, Math.ceil(total / query.limit)) };
}

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number } | null)?.code === 11000;
}

/**
 * Gives a package to a user and credits its coins once (idempotent key per assignment). The
 * unique active key blocks a second active assignment of the same package.
 */
export async function assignPackage(
  admin: AuthedAdmin,
  input: AssignPackageRequest,
  pusher: Pusher,
  now = new Date(),
): Promise<{ assignment: PackageAssignment; coinsAdded: number }> {
  const [pkg, user] = await Promise.all([
    WalletPackageModel.findById(input.packageId).lean<WalletPackageDoc>(),
    User.exists({ _id: input.userId }),
  ]);
  if (!pkg) throw notFound("Package not found");
  if (!user) throw notFound("User not found");
  if (pkg.status !== "active") throw badRequest("packageId: this package is inactive", "packageId");
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw badRequest("expiresAt: must be in the future", "expiresAt");
  }
  const subscriptionType = pkg.subscriptionType as SubscriptionType;
  const expiresAt = input.expiresAt ?? new Date(now.getTime() + SUBSCRIPTION_PERIOD_MS[subscriptionType]);

  const resumed = await resumeRemovedAssignment(admin, input, now);
  if (resumed) return resumed;

  let created: PackageAssignmentDoc;
  try {
    const doc = await PackageAssignmentModel.create({
      userId: input.userId,
      packageId: pkg._id,
      packageName: pkg.name,
      coins: pkg.coins,
      price: pkg.price,
      subscriptionType,
      isActive: true,
      activeKey: activeAssignmentKey(input.userId, pkg._id),
      autoRenew: input.autoRenew,
      expiresAt,
      creditPending: pkg.coins > 0,
      assignedBy: `admin:${admin.id}`,
    });
    created = doc.toObject() as PackageAssignmentDoc;
  } catch (error) {
    if (isDuplicateKey(error)) throw conflict(MESSAGES.packageAlreadyActive, "package_already_active");
    throw error;
  }

  const id = String(created._id);
  if (pkg.coins > 0) {
    const entry = await credit(
      input.userId,
      pkg.coins,
      assignmentCreditKey(id, 0),
      "credit",
      `package:${pkg.name}`,
      `admin:${admin.id}`,
    );
    await PackageAssignmentModel.updateOne({ _id: created._id }, { creditPending: false });
    if (entry.balanceAfter !== null)
      pusher.toUser(input.userId, "wallet:updated", { coins: entry.balanceAfter, reason: "package" });
  }
  const assignment = toAssignment({ ...created, creditPending: false });
  await recordAudit(admin, {
    action: "assignment.create",
    targetType: "assignment",
    targetId: id,
    before: null,
    after: { ...assignment, coins_credited: pkg.coins },
  });
  return { assignment, coinsAdded: pkg.coins };
}

/**
 * Assigning again a package removed within its paid period takes that assignment back up
 * instead of starting a new one: same period, same ledger keys, so no second credit (removing
 * and re-assigning was a way to mint coins). The period ends when it would have; the unique
 * active key still refuses a second active copy under concurrent requests.
 */
async function resumeRemovedAssignment(
  admin: AuthedAdmin,
  input: AssignPackageRequest,
  now: Date,
): Promise<{ assignment: PackageAssignment; coinsAdded: number } | null> {
  const filter = {
    userId: new Types.ObjectId(input.userId),
    packageId: new Types.ObjectId(input.packageId),
    isActive: false,
    endedReason: "removed",
    expiresAt: { $gt: now },
  };
  const previous = await PackageAssignmentModel.findOne(filter).sort({ expiresAt: -1 }).lean<PackageAssignmentDoc>();
  if (!previous) return null;
  let resumed: PackageAssignmentDoc | null;
  try {
    resumed = await PackageAssignmentModel.findOneAndUpdate(
      { _id: previous._id, isActive: false, endedReason: "removed", expiresAt: { $gt: now } },
      {
        $set: {
          isActive: true,
          activeKey: activeAssignmentKey(input.userId, input.packageId),
          autoRenew: input.autoRenew,
          endedAt: null,
          endedReason: null,
          assignedBy: `admin:${admin.id}`,
        },
      },
      { returnDocument: "after" },
    ).lean<PackageAssignmentDoc>();
  } catch (error) {
    if (isDuplicateKey(error)) throw conflict(MESSAGES.packageAlreadyActive);
    throw error;
  }
  if (!resumed) return null;
  const assignment = toAssignment(resumed);
  await recordAudit(admin, {
    action: "assignment.resume",
    targetType: "assignment",
    targetId: assignment.id,
    before: toAssignment(previous),
    after: { ...assignment, coins_credited: 0 },
  });
  return { assignment, coinsAdded: 0 };
}

/** Removing deactivates: the coins already credited stay, the subscription stops renewing. */
export async function removeAssignment(admin: AuthedAdmin, id: string, now = new Date()): Promise<void> {
  const before = await PackageAssignmentModel.findOneAndUpdate(
    { _id: id, isActive: true },
    { $set: { isActive: false, endedAt: now, endedReason: "removed" }, $unset: { activeKey: 1 } },
    { returnDocument: "before" },
  ).lean<PackageAssignmentDoc>();
  if (!before) {
    if (await PackageAssignmentModel.exists({ _id: id })) return;
    throw notFound("Package assignment not found");
  }
  const after = { ...toAssignment(before), is_active: false, ended_reason: "removed" };
  await recordAudit(admin, {
    action: "assignment.remove",
    targetType: "assignment",
    targetId: id,
    before: toAssignment(before),
    after,
  });
}
