import session, { Store, type SessionData } from "express-session";
import type { Redis } from "ioredis";
import type { RequestHandler } from "express";
import type { AdminRole } from "@storefront/shared";

declare module "express-session" {
  interface SessionData {
    userId?: string;
    phone?: string;
    adminId?: string;
    adminRole?: AdminRole;
    /** The admin's `sessionVersion` at login: a password reset or deactivation raises it, ending this session. */
    adminSessionVersion?: number;
  }
}

export const SESSION_COOKIE = "sf.sid";
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;

/** express-session store on the ioredis connection the API already holds. */
export class RedisSessionStore extends Store {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = "sess:",
  ) {
    super();
  }

  private ttl(data: SessionData): number {
    const expires = data.cookie?.expires ? new Date(data.cookie.expires).getTime() : 0;
    return expires ? Math.max(1, Math.ceil((expires - Date.now()) / 1000)) : SESSION_TTL_SECONDS;
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.redis.get(this.prefix + sid).then(
      (raw) => callback(null, raw ? (JSON.parse(raw) as SessionData) : null),
      (err) => callback(err),
    );
  }

  override set(sid: string, data: SessionData, callback?: (err?: unknown) => void): void {
    this.redis.set(this.prefix + sid, JSON.stringify(data), "EX", this.ttl(data)).then(
      () => callback?.(),
      (err) => callback?.(err),
    );
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.redis.del(this.prefix + sid).then(
      () => callback?.(),
      (err) => callback?.(err),
    );
  }

  override touch(sid: string, data: SessionData, callback?: () => void): void {
    this.redis.expire(this.prefix + sid, this.ttl(data)).then(
      () => callback?.(),
      () => callback?.(),
    );
  }
}

export function sessionMiddleware(redis: Redis, secret: string): RequestHandler {
  return session({
    name: SESSION_COOKIE,
    secret,
    store: new RedisSessionStore(redis),
    resave: false,
    saveUninitialized: false,
    rolling: true,
    cookie: { httpOnly: true, sameSite: "lax", secure: "auto", maxAge: SESSION_TTL_SECONDS * 1000 },
  });
}
