import type { Request } from "express";
import type { Redis } from "ioredis";
import {
  MESSAGES,
  phoneLookupForms,
  possiblePhone,
  type AdminRecord,
  type ChangePasswordRequest,
  type LoginRequest,
  type PhoneCountry,
  type SessionUser,
  type SignupRequest,
} from "@storefront/shared";
import {
  Admin,
  endSessionSubscriptions,
  keepOnlySessionSubscriptions,
  migrateLedgerOnce,
  migratePhonesOnce,
  User,
  type Config,
  type Logger,
  type Pusher,
} from "@storefront/shared/server";
import { AppError, badRequest, forbidden, notFound, unauthorized } from "../errors";
import { clientKey, hit } from "../middleware/rate-limit";
import { accountPhone, claimForSignup, hasVisitorCode, type CodeRequester, type PhoneProofDeps } from "./phone-proof";
import { endUserSessions } from "../middleware/session";
import { hashPassword, verifyPassword } from "./passwords";

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

export function sessionUserBody(user: SessionUser) {
  return { success: true as const, user, id: user.id, phone: user.phone };
}

const phoneTaken = () => new AppError(409, "phone_taken", MESSAGES.phoneTaken);

/**
 * Stores the phone in E.164; any other stored form of the same number (not yet migrated) is taken
 * too. A number libphonenumber cannot parse or finds impossible is refused. With the code sent to
 * the number, the account is created with it proven, taking it back from an account that holds it
 * unproven (phone-proof.ts); without, it proves it later.
 */
export async function signup(deps: PhoneProofDeps, input: SignupRequest, requester: CodeRequester): Promise<SessionUser> {
  const country = deps.config.DEFAULT_PHONE_COUNTRY;
  const phone = possiblePhone(input.phone, country);
  if (!phone) throw badRequest(MESSAGES.phoneImpossible, "phone");
  if (input.code) await claimForSignup(deps, input.phone, input.code, requester);
  else if (await User.exists({ phone: { $in: phoneLookupForms(input.phone, country) } })) throw phoneTaken();
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await User.create({ phone, passwordHash, phoneVerifiedAt: input.code ? new Date() : null });
    return { id: String(user._id), ...accountPhone(user) };
  } catch (error) {
    if ((error as { code?: number }).code === 11000) throw phoneTaken();
    throw error;
  }
}

/** The data migrations an API start runs once per data set (idempotent); duplicates are left for an operator. */
export async function migrateData(config: Config, log: Logger): Promise<void> {
  const ledger = await migrateLedgerOnce();
  if (ledger) log.info({ ...ledger, mismatched: ledger.mismatched.length }, "ledger moved to the chain format");
  for (const user of ledger?.mismatched ?? []) {
    log.error(
      user,
      "balance is not the sum of the old ledger entries; the user's ledger is left unmoved, see docs/operations.md",
    );
  }
  const phones = await migratePhonesOnce(config.DEFAULT_PHONE_COUNTRY);
  if (!phones) return;
  if (phones.rewritten) log.info({ rewritten: phones.rewritten }, "stored phones rewritten to E.164");
  for (const duplicate of phones.duplicates) {
    log.warn(duplicate, "two accounts hold one phone number; left unmerged, see docs/operations.md");
  }
}

/**
 * Counts a signup per client address (429 past the limit): each one costs an argon2 hash. A signup
 * that proves its number gives its place back (phone-proof.ts): the limit counts accounts nobody
 * proved, so the many real phones behind one carrier address are not shut out.
 */
export async function limitSignups(redis: Redis, config: Config, ip: string | undefined): Promise<void> {
  try {
    await hit(redis, `signup:ip:${clientKey(ip)}`, config.SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR, 3600, MESSAGES.tooManySignups);
  } catch (error) {
    if (error instanceof AppError && error.status === 429)
      throw new AppError(429, "too_many_signups", error.message, error.extra);
    throw error;
  }
}

/** Counts a login attempt per phone and per client address (429 past the limit). */
export async function limitLoginAttempts(redis: Redis, config: Config, scope: string, ip: string | undefined): Promise<void> {
  try {
    await hit(redis, `login:id:${scope}`, config.LOGIN_RATE_LIMIT_PER_MINUTE, 60, MESSAGES.tooManyLogins);
    await hit(redis, `login:ip:${clientKey(ip)}`, config.LOGIN_RATE_LIMIT_PER_IP_PER_MINUTE, 60, MESSAGES.tooManyLogins);
  } catch (error) {
    // Its own code, so the login screen can say "too many login attempts" in the user's language.
    if (error instanceof AppError && error.status === 429) throw new AppError(429, "too_many_logins", error.message, error.extra);
    throw error;
  }
}

interface LoginRow {
  _id: unknown;
  phone?: string;
  phoneVerifiedAt?: Date | null;
  releasedPhone?: string;
  passwordHash: string;
  isActive: boolean;
}

/**
 * The account of a phone in any form it was typed. Rows stored before phones were canonical are
 * found too; when the migration left two rows of one number, the one the password opens is used.
 * An account whose number its proven owner took back still signs in with it (after the owner's).
 */
async function findByPhoneAndPassword(input: LoginRequest, country: PhoneCountry): Promise<LoginRow | null> {
  const forms = phoneLookupForms(input.phone, country);
  const rows = await User.find(
    { $or: [{ phone: { $in: forms } }, { releasedPhone: { $in: forms } }] },
    { phone: 1, phoneVerifiedAt: 1, releasedPhone: 1, passwordHash: 1, isActive: 1 },
  )
    .limit(2 * forms.length)
    .lean<LoginRow[]>();
  if (!rows.length) {
    await verifyPassword(null, input.password);
    return null;
  }
  const rank = (row: LoginRow) => (row.phone ? forms.indexOf(row.phone) : forms.length);
  rows.sort((a, b) => rank(a) - rank(b));
  for (const row of rows) if (await verifyPassword(row.passwordHash, input.password)) return row;
  return null;
}

export async function login(req: Request, redis: Redis, input: LoginRequest, country: PhoneCountry): Promise<SessionUser> {
  const user = await findByPhoneAndPassword(input, country);
  if (!user) throw unauthorized(MESSAGES.invalidCredentials, "invalid_credentials");
  if (!user.isActive) throw forbidden(MESSAGES.accountInactive, "account_inactive");
  const adminId = req.session.adminId;
  const adminRole = req.session.adminRole;
  const adminSessionVersion = req.session.adminSessionVersion;
  const { phone, phoneStatus } = accountPhone(user);
  // The code sent to the account's number at sign-up, while signed out, is typed after logging in.
  // Only a visitor id that holds such a code is carried: one planted in the session (a cookie set
  // by someone else) would otherwise be counted with the account's tries.
  const visitor = req.session.phoneCodeVisitor;
  const phoneCodeVisitor = visitor && phone && (await hasVisitorCode(redis, phone, visitor)) ? visitor : undefined;
  await regenerate(req);
  req.session.userId = String(user._id);
  req.session.phone = phone;
  if (adminId) Object.assign(req.session, { adminId, adminRole, adminSessionVersion });
  if (phoneCodeVisitor) req.session.phoneCodeVisitor = phoneCodeVisitor;
  await save(req);
  return { id: String(user._id), phone, phoneStatus };
}

export async function adminLogin(req: Request, username: string, password: string): Promise<AdminRecord> {
  const admin = await Admin.findOne(
    { username },
    { username: 1, passwordHash: 1, role: 1, isActive: 1, sessionVersion: 1 },
  ).lean<{
    _id: unknown;
    username: string;
    passwordHash: string;
    role: AdminRecord["role"];
    isActive: boolean;
    sessionVersion?: number;
  }>();
  const valid = await verifyPassword(admin?.passwordHash ?? null, password);
  if (!admin || !valid || !admin.isActive) throw unauthorized(MESSAGES.adminLoginFailed, "admin_login_failed");
  const { userId, phone } = req.session;
  await regenerate(req);
  req.session.adminId = String(admin._id);
  req.session.adminRole = admin.role;
  req.session.adminSessionVersion = admin.sessionVersion ?? 0;
  if (userId) Object.assign(req.session, { userId, phone });
  await save(req);
  await Admin.updateOne({ _id: admin._id }, { lastLoginAt: new Date() });
  return { id: String(admin._id), username: admin.username, role: admin.role };
}

/** Creates the first super admin from ADMIN_USERNAME / ADMIN_PASSWORD when no admin exists. */
export async function ensureFirstAdmin(config: Config, log: Logger): Promise<void> {
  if (!config.ADMIN_USERNAME || !config.ADMIN_PASSWORD) {
    if (!(await Admin.exists({}))) log.warn("no administrator exists: set ADMIN_USERNAME and ADMIN_PASSWORD to create one");
    return;
  }
  if (await Admin.exists({})) return;
  try {
    await Admin.create({
      username: config.ADMIN_USERNAME,
      passwordHash: await hashPassword(config.ADMIN_PASSWORD),
      role: "super_admin",
    });
    log.info({ username: config.ADMIN_USERNAME }, "created the first super admin");
  } catch (error) {
    if ((error as { code?: number }).code !== 11000) throw error;
  }
}

/** Ends the session and closes its sockets on every API process. */
export async function logout(req: Request, pusher: Pusher): Promise<void> {
  pusher.disconnectSession(req.sessionID);
  await endSessionSubscriptions(req.sessionID);
  await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
}

/**
 * Changes the signed-in user's password. The session that asked is kept (under a new id, as at
 * login); every other session of the user ends, and so do their sockets, on every process.
 */
export async function changePassword(
  req: Request,
  deps: { redis: Redis; config: Config; pusher: Pusher },
  input: ChangePasswordRequest,
): Promise<{ success: true }> {
  const userId = req.user!.id;
  // Counted before the hash is checked: the limit is what stops guessing the current password.
  await hit(
    deps.redis,
    `password-change:${userId}`,
    deps.config.PASSWORD_CHANGE_RATE_LIMIT_PER_HOUR,
    3600,
    MESSAGES.tooManyRequests,
  );
  const user = await User.findById(userId, { passwordHash: 1 }).lean<{ passwordHash: string }>();
  if (!user) throw notFound("User not found");
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw badRequest(MESSAGES.currentPasswordWrong, "currentPassword");
  }
  await User.updateOne({ _id: userId }, { passwordHash: await hashPassword(input.newPassword) });

  const oldSid = req.sessionID;
  const { phone, adminId, adminRole, adminSessionVersion } = req.session;
  const kept = { userId, phone, adminId, adminRole, adminSessionVersion };
  await regenerate(req);
  Object.assign(req.session, kept);
  await save(req);
  await endUserSessions(deps.redis, userId, req.sessionID);
  deps.pusher.keepOnlySession(userId, oldSid, req.sessionID);
  await keepOnlySessionSubscriptions(userId, oldSid, req.sessionID);
  return { success: true };
}
