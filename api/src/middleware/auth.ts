import { timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import { Types } from "mongoose";
import { MESSAGES, roleAllows, type AdminPermission, type AdminRole } from "@storefront/shared";
import { Admin, RecordCache, User } from "@storefront/shared/server";
import { forbidden, unauthorized } from "../errors";
import { accountPhone, ACCOUNT_PHONE_FIELDS } from "../services/phone-proof";
import type { SessionData } from "express-session";
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

async function loadUser(id: string): Promise<CachedUser | null> {
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
}

const users = new RecordCache("user", loadUser);

/** The session user's cached record (settings included), or null for an unknown id. */
export function cachedUser(userId: string): Promise<CachedUser | null> {
  return users.get(userId);
}

/** The parts of a stored session that say who holds it (express-session's data). */
export type SessionClaims = Partial<Pick<SessionData, "userId" | "adminId" | "adminSessionVersion">>;

/** Who a session speaks for now: a user (or why not), an administrator (or null). */
export interface SessionHolders {
  user: AuthedUser | "inactive" | null;
  admin: AuthedAdmin | null;
}

/**
 * The one place that decides whether a session is still valid, for HTTP calls (requireUser,
 * requireAdmin) and the socket handshake alike: the user must exist and be active; the
 * administrator must exist, be active and still be on the session version of the login (a
 * password reset or deactivation raises it). Each lookup runs only for the ids the session holds;
 * `fresh` reads the user from the database instead of this process's cache.
 */
export async function sessionHolders(session: SessionClaims | undefined, { fresh = false } = {}): Promise<SessionHolders> {
  const { userId, adminId } = session ?? {};
  const [user, admin] = await Promise.all([
    userId && Types.ObjectId.isValid(userId) ? (fresh ? loadUser(userId) : users.get(userId)) : null,
    adminId && Types.ObjectId.isValid(adminId)
      ? Admin.findById(adminId, { username: 1, role: 1, isActive: 1, sessionVersion: 1 }).lean<{
          username: string;
          role: AdminRole;
          isActive: boolean;
          sessionVersion?: number;
        }>()
      : null,
  ]);
  const adminValid = admin && admin.isActive && (admin.sessionVersion ?? 0) === (session?.adminSessionVersion ?? 0);
  return {
    user: !user ? null : user.isActive ? { id: userId!, phone: user.phone } : "inactive",
    admin: adminValid ? { id: adminId!, username: admin.username, role: admin.role } : null,
  };
}

/**
 * The session's user, checked on every call so that a deactivated account stops working at
 * once, even on live sessions.
 */
export const requireUser: RequestHandler = async (req, _res, next) => {
  if (!req.session?.userId) throw unauthorized();
  const { user } = await sessionHolders({ userId: req.session.userId });
  if (!user || user === "inactive") {
    await destroySession(req);
    throw user === "inactive" ? unauthorized(MESSAGES.accountInactive, "account_inactive") : unauthorized();
  }
  req.user = user;
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
    const { adminId, adminSessionVersion } = req.session ?? {};
    const { admin } = adminId ? await sessionHolders({ adminId, adminSessionVersion }) : { admin: null };
    if (!admin) {
      if (req.session) {
        delete req.session.adminId;
        delete req.session.adminRole;
        delete req.session.adminSessionVersion;
      }
      throw unauthorized(MESSAGES.adminSessionRequired, "admin_session_required");
    }
    if (permissions.some((permission) => !roleAllows(admin.role, permission))) throw forbidden(MESSAGES.adminForbidden);
    req.admin = admin;
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
