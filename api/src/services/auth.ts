import type { Request } from "express";
import type { Redis } from "ioredis";
import { MESSAGES, type AdminRecord, type LoginRequest, type SignupRequest } from "@storefront/shared";
import { Admin, User, type Config, type Logger } from "@storefront/shared/server";
import { conflict, forbidden, unauthorized } from "../errors";
import { hit } from "../middleware/rate-limit";
import { hashPassword, verifyPassword } from "./passwords";

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

export function sessionUserBody(user: { id: string; phone: string }) {
  return { success: true as const, user, id: user.id, phone: user.phone };
}

export async function signup(input: SignupRequest): Promise<{ id: string; phone: string }> {
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await User.create({ phone: input.phone, passwordHash });
    return { id: String(user._id), phone: user.phone };
  } catch (error) {
    if ((error as { code?: number }).code === 11000) throw conflict(MESSAGES.phoneTaken);
    throw error;
  }
}

/** Counts a login attempt per phone and per client address (429 past the limit). */
export async function limitLoginAttempts(redis: Redis, config: Config, scope: string, ip: string): Promise<void> {
  await hit(redis, `login:id:${scope}`, config.LOGIN_RATE_LIMIT_PER_MINUTE, 60, MESSAGES.tooManyLogins);
  await hit(redis, `login:ip:${ip}`, config.LOGIN_RATE_LIMIT_PER_IP_PER_MINUTE, 60, MESSAGES.tooManyLogins);
}

export async function login(req: Request, input: LoginRequest): Promise<{ id: string; phone: string }> {
  const user = await User.findOne({ phone: input.phone }, { phone: 1, passwordHash: 1, isActive: 1 }).lean<{
    _id: unknown;
    phone: string;
    passwordHash: string;
    isActive: boolean;
  }>();
  const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !valid) throw unauthorized(MESSAGES.invalidCredentials);
  if (!user.isActive) throw forbidden(MESSAGES.accountInactive);
  const adminId = req.session.adminId;
  const adminRole = req.session.adminRole;
  const adminSessionVersion = req.session.adminSessionVersion;
  await regenerate(req);
  req.session.userId = String(user._id);
  req.session.phone = user.phone;
  if (adminId) Object.assign(req.session, { adminId, adminRole, adminSessionVersion });
  await save(req);
  return { id: String(user._id), phone: user.phone };
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
  if (!admin || !valid || !admin.isActive) throw unauthorized(MESSAGES.adminLoginFailed);
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
