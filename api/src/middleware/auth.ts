import { timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import { Types } from "mongoose";
import { MESSAGES, roleAllows, type AdminPermission, type AdminRole } from "@storefront/shared";
import { Admin, RecordCache, User } from "@storefront/shared/server";
import { forbidden, unauthorized } from "../errors";
import { accountPhone, ACCOUNT_PHONE_FIELDS } from "../services/phone-proof";
import "./session";

export interface AuthedUser {
  id: string;
  phone: string;
}

export interface AuthedAdmin {
  id: string;
  username: string;
  role: AdminRole;
}

declare module "express-serve-static-core" {
  interface Request {
    user?: AuthedUser;
    admin?: AuthedAdmin;
  }
}

function destroySession(req: Request): Promise<void> {
  return new Promise((resolve) => req.session.destroy(() => resolve()));
}

/** What every call needs of its user: cached per process; a change empties it everywhere (cache-bus.ts). */
export interface CachedUser {
  phone: string;
  isActive: boolean;
  /** The user's own settings (wallet/settings.php), null when unset. */
  dailyCap: number | null;
  lowBalanceThreshold: number | null;
  /** Whether the low-balance notice also goes out by SMS. */
  smsAlerts: boolean;
}

const users = new RecordCache("user", async (id): Promise<CachedUser | null> => {
  const found = await User.findById(id, {
    ...ACCOUNT_PHONE_FIELDS,
    isActive: 1,
    dailyCap: 1,
    lowBalanceThreshold: 1,
    smsAlerts: 1,
  }).lean<Partial<CachedUser> & { phone?: string; phoneVerifiedAt?: Date | null; releasedPhone?: string; isActive: boolean }>();
  return found
    ? {
        phone: accountPhone(found).phone,
        isActive: found.isActive,
        dailyCap: found.dailyCap ?? null,
        lowBalanceThreshold: found.lowBalanceThreshold ?? null,
        smsAlerts: found.smsAlerts ?? false,
      }
    : null;
});

/** The session user's cached record (settings included), or null for an unknown id. */
export function cachedUser(userId: string): Promise<CachedUser | null> {
  return users.get(userId);
}

/**
 * The session's user, checked on every call so that a deactivated account stops working at
 * once, even on live sessions.
 */
export const requireUser: RequestHandler = async (req, _res, next) => {
  const userId = req.session?.userId;
  if (!userId || !Types.ObjectId.isValid(userId)) throw unauthorized();
  const user = await users.get(userId);
  if (!user || !user.isActive) {
    await destroySession(req);
    throw user ? unauthorized(MESSAGES.accountInactive, "account_inactive") : unauthorized();
  }
  req.user = { id: userId, phone: user.phone };
  next();
};

/** A `userId` sent by the client is never trusted: it must be the session's own. */
export function assertOwnUserId(req: Request, ...candidates: (string | undefined)[]): string {
  const own = req.user!.id;
  for (const candidate of candidates) {
    if (candidate !== undefined && candidate !== "" && candidate !== own) throw forbidden(MESSAGES.forbiddenUser);
  }
  return own;
}

/**
 * Admin session with a role that holds every one of `permissions`: 401 without a session (or
 * one ended by a password reset or deactivation), 403 without the rights.
 */
export function requireAdmin(...permissions: AdminPermission[]): RequestHandler {
  return async (req, _res, next) => {
    const adminId = req.session?.adminId;
    if (!adminId || !Types.ObjectId.isValid(adminId)) throw unauthorized(MESSAGES.adminSessionRequired, "admin_session_required");
    const admin = await Admin.findById(adminId, { username: 1, role: 1, isActive: 1, sessionVersion: 1 }).lean<{
      username: string;
      role: AdminRole;
      isActive: boolean;
      sessionVersion?: number;
    }>();
    if (!admin || !admin.isActive || (admin.sessionVersion ?? 0) !== (req.session.adminSessionVersion ?? 0)) {
      delete req.session.adminId;
      delete req.session.adminRole;
      delete req.session.adminSessionVersion;
      throw unauthorized(MESSAGES.adminSessionRequired, "admin_session_required");
    }
    if (permissions.some((permission) => !roleAllows(admin.role, permission))) throw forbidden(MESSAGES.adminForbidden);
    req.admin = { id: adminId, username: admin.username, role: admin.role };
    next();
  };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Prometheus scrapes with `Authorization: Bearer $METRICS_TOKEN`; admins with stats:view may look too. */
export function metricsAccess(token: string | undefined): RequestHandler {
  const admin = requireAdmin("stats:view");
  return (req, res, next) => {
    const header = req.headers.authorization ?? "";
    const bearer = /^Bearer (.+)$/u.exec(header)?.[1];
    if (token && bearer && sameSecret(bearer, token)) return next();
    return admin(req, res, next);
  };
}
