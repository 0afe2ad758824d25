/**
 * Administrator accounts (`admins:manage`): list, create, change role, (de)activate, reset a
 * password. Two rules hold whatever the order of concurrent requests: nobody changes their own
 * role or active flag, and the last active super admin is never demoted or deactivated.
 */
import {
  adminPasswordProblem,
  type AdminAccount,
  type AdminRole,
  type CreateAdminRequest,
  type UpdateAdminRequest,
} from "@storefront/shared";
import { Admin, type AdminDoc } from "@storefront/shared/server";
import { badRequest, conflict, forbidden, notFound } from "../errors";
import type { AuthedAdmin } from "../middleware/auth";
import { recordAudit } from "./audit";
import { hashPassword } from "./passwords";

const ADMIN_TEXT = {
  usernameTaken: "username is already taken",
  notSelf: "You cannot change your own role or deactivate yourself",
  lastSuperAdmin: "The last active super admin cannot be demoted or deactivated",
  changedMeanwhile: "This administrator was changed meanwhile; reload and try again",
  notFound: "Administrator not found",
} as const;

type AdminRow = AdminDoc & { createdAt: Date };

function toAccount(doc: AdminRow): AdminAccount {
  return {
    id: String(doc._id),
    username: doc.username,
    role: doc.role as AdminRole,
    is_active: doc.isActive ?? true,
    last_login_at: doc.lastLoginAt ? doc.lastLoginAt.toISOString() : null,
    created_at: doc.createdAt.toISOString(),
  };
}

const ACCOUNT_FIELDS = { username: 1, role: 1, isActive: 1, lastLoginAt: 1, createdAt: 1 } as const;

export async function listAdmins(): Promise<{ success: true; admins: AdminAccount[] }> {
  const docs = await Admin.find({}, ACCOUNT_FIELDS).sort({ createdAt: 1, _id: 1 }).limit(500).lean<AdminRow[]>();
  return { success: true, admins: docs.map(toAccount) };
}

/** Creates an administrator; shared by the API and `npm run admin -- create` (actor null: the CLI). */
export async function createAdmin(actor: AuthedAdmin | null, input: CreateAdminRequest): Promise<AdminAccount> {
  const passwordHash = await hashPassword(input.password);
  let created: AdminRow;
  try {
    const doc = await Admin.create({ username: input.username, passwordHash, role: input.role });
    created = doc.toObject() as AdminRow;
  } catch (error) {
    if ((error as { code?: number }).code === 11000) throw conflict(ADMIN_TEXT.usernameTaken);
    throw error;
  }
  const account = toAccount(created);
  if (actor)
    await recordAudit(actor, { action: "admin.create", targetType: "admin", targetId: account.id, before: null, after: account });
  return account;
}

const activeSuperAdmins = () => Admin.countDocuments({ role: "super_admin", isActive: true });

/**
 * Applies one change. The update is conditional on the state read (a concurrent change to the
 * same admin gives 409). When it takes an active super admin away, the remaining ones are
 * counted after the write and the change is undone if none is left: of two concurrent
 * demotions of the last two super admins, the one counting second sees zero, so both can never
 * pass (docs/security.md).
 */
export async function updateAdmin(
  actor: AuthedAdmin,
  input: UpdateAdminRequest,
): Promise<{ account: AdminAccount; sessionVersion: number }> {
  const target = await Admin.findById(input.id).lean<AdminRow & { sessionVersion?: number }>();
  if (!target) throw notFound(ADMIN_TEXT.notFound);
  const isSelf = String(target._id) === actor.id;
  const roleChanges = input.role !== undefined && input.role !== target.role;
  const activeChanges = input.isActive !== undefined && input.isActive !== target.isActive;
  if (isSelf && (roleChanges || activeChanges)) throw forbidden(ADMIN_TEXT.notSelf);
  if (input.password !== undefined) {
    const problem = adminPasswordProblem(input.password, target.username);
    if (problem) throw badRequest(`password: ${problem}`, "password");
  }

  const set: Record<string, unknown> = {};
  if (roleChanges) set.role = input.role;
  if (activeChanges) set.isActive = input.isActive;
  if (input.password !== undefined) set.passwordHash = await hashPassword(input.password);
  // A new password or a deactivation ends every session the target holds (requireAdmin compares it).
  const endSessions = input.password !== undefined || (activeChanges && input.isActive === false);
  const before = toAccount(target);
  if (Object.keys(set).length === 0) return { account: before, sessionVersion: target.sessionVersion ?? 0 };

  const stateRead = { _id: target._id, role: target.role, isActive: target.isActive, passwordHash: target.passwordHash };
  const updated = await Admin.findOneAndUpdate(
    stateRead,
    { $set: set, ...(endSessions ? { $inc: { sessionVersion: 1 } } : {}) },
    { returnDocument: "after", projection: { ...ACCOUNT_FIELDS, sessionVersion: 1 } },
  ).lean<AdminRow & { sessionVersion?: number }>();
  if (!updated) throw conflict(ADMIN_TEXT.changedMeanwhile);

  const removesSuperAdmin =
    target.role === "super_admin" && target.isActive && (updated.role !== "super_admin" || !updated.isActive);
  if (removesSuperAdmin && (await activeSuperAdmins()) === 0) {
    await Admin.updateOne(
      { _id: target._id },
      { $set: { role: target.role, isActive: target.isActive, passwordHash: target.passwordHash } },
    );
    throw conflict(ADMIN_TEXT.lastSuperAdmin);
  }

  const account = toAccount(updated);
  await recordAudit(actor, {
    action: "admin.update",
    targetType: "admin",
    targetId: account.id,
    before,
    // The password itself is never logged, only that it changed.
    after: { ...account, ...(input.password !== undefined ? { password_reset: true } : {}) },
  });
  return { account, sessionVersion: updated.sessionVersion ?? 0 };
}
