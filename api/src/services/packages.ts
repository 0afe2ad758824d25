/** Wallet packages and their assignment to users (SPEC §2 Wallet Packages, Assign Package; §4). */
import { Types } from "mongoose";
import {
  MESSAGES,
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
  AssignmentTaken,
  PackageAssignmentModel,
  User,
  WalletPackageModel,
  createAssignment,
  creditFirstPeriod,
  endAssignment,
  resumeRemovedAssignment,
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
    // A hand-edited or imported record may hold null: every view shows it as no description.
    description: doc.description ?? "",
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

  const resumed = await resumeRemoved(admin, input, now);
  if (resumed) return resumed;

  let created: PackageAssignmentDoc;
  try {
    created = await createAssignment({
      userId: input.userId,
      pkg,
      autoRenew: input.autoRenew,
      expiresAt: input.expiresAt,
      now,
      assignedBy: `admin:${admin.id}`,
    });
  } catch (error) {
    if (error instanceof AssignmentTaken) throw conflict(MESSAGES.packageAlreadyActive, "package_already_active");
    throw error;
  }

  const id = String(created._id);
  if (pkg.coins > 0) {
    const entry = await creditFirstPeriod(created, `package:${pkg.name}`, `admin:${admin.id}`);
    if (entry && entry.balanceAfter !== null)
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
async function resumeRemoved(
  admin: AuthedAdmin,
  input: AssignPackageRequest,
  now: Date,
): Promise<{ assignment: PackageAssignment; coinsAdded: number } | null> {
  let resumed;
  try {
    resumed = await resumeRemovedAssignment(
      { userId: input.userId, packageId: input.packageId, autoRenew: input.autoRenew, assignedBy: `admin:${admin.id}` },
      now,
    );
  } catch (error) {
    if (error instanceof AssignmentTaken) throw conflict(MESSAGES.packageAlreadyActive);
    throw error;
  }
  if (!resumed) return null;
  const assignment = toAssignment(resumed.after);
  await recordAudit(admin, {
    action: "assignment.resume",
    targetType: "assignment",
    targetId: assignment.id,
    before: toAssignment(resumed.before),
    after: { ...assignment, coins_credited: 0 },
  });
  return { assignment, coinsAdded: 0 };
}

/** Removing deactivates: the coins already credited stay, the subscription stops renewing. */
export async function removeAssignment(admin: AuthedAdmin, id: string, now = new Date()): Promise<void> {
  const before = await endAssignment(id, "removed", now);
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
