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
    /** A signed-out visitor's id, made when its first phone code is sent: its codes are its own (services/phone-proof.ts). */
    phoneCodeVisitor?: string;
  }
}

export const SESSION_COOKIE = "sf.sid";
const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/**
 * A process pushes a session's expiry forward in Redis at most this often (every response would
 * otherwise write): the stored session may then end up to this long before its cookie, a week on.
 */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;
/** Sessions whose last refresh a process remembers; past this the oldest are forgotten (refreshed again). */
const TOUCHES_TRACKED = 50_000;
const userSessionsKey = (userId: string) => `user-sessions:${userId}`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A stored session value, or null when it is absent or not a JSON object: a corrupt value (a
 * bad write, a foreign key under our prefix) reads as "no session" instead of throwing inside
 * the store's promise, where nothing would catch it.
 */
export function parseSession(raw: string | null): SessionData | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { cookie?: unknown } | null;
    // express-session reads `cookie` of whatever the store gives: without it the read would throw.
    const usable = isObject(value) && isObject(value.cookie);
    return usable ? (value as SessionData) : null;
  } catch {
    return null;
  }
}

/** express-session store on the ioredis connection the API already holds. */
export class RedisSessionStore extends Store {
  /** When this process last wrote or refreshed each session (insertion order: oldest first). */
  private readonly refreshedAt = new Map<string, number>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix = "sess:",
  ) {
    super();
  }

  private noteRefreshed(sid: string, now: number): void {
    this.refreshedAt.delete(sid);
    this.refreshedAt.set(sid, now);
    if (this.refreshedAt.size > TOUCHES_TRACKED) this.refreshedAt.delete(this.refreshedAt.keys().next().value!);
  }

  private ttl(data: SessionData): number {
    const expires = data.cookie?.expires ? new Date(data.cookie.expires).getTime() : 0;
    return expires ? Math.max(1, Math.ceil((expires - Date.now()) / 1000)) : SESSION_TTL_SECONDS;
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.redis.get(this.prefix + sid).then(
      (raw) => callback(null, parseSession(raw)),
      (err) => callback(err),
    );
  }

  override set(sid: string, data: SessionData, callback?: (err?: unknown) => void): void {
    const ttl = this.ttl(data);
    const write = this.redis.multi().set(this.prefix + sid, JSON.stringify(data), "EX", ttl);
    // Which sessions a user holds, so a password change can end the others (endUserSessions).
    if (data.userId) write.sadd(userSessionsKey(data.userId), sid).expire(userSessionsKey(data.userId), SESSION_TTL_SECONDS);
    write.exec().then(
      () => {
        this.noteRefreshed(sid, Date.now());
        callback?.();
      },
      (err) => callback?.(err),
    );
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.refreshedAt.delete(sid);
    this.redis.del(this.prefix + sid).then(
      () => callback?.(),
      (err) => callback?.(err),
    );
  }

  override touch(sid: string, data: SessionData, callback?: () => void): void {
    const now = Date.now();
    const last = this.refreshedAt.get(sid);
    if (last !== undefined && now - last < SESSION_TOUCH_INTERVAL_MS) {
      callback?.();
      return;
    }
    this.noteRefreshed(sid, now);
    const refresh = this.redis.multi().expire(this.prefix + sid, this.ttl(data));
    if (data.userId) refresh.sadd(userSessionsKey(data.userId), sid).expire(userSessionsKey(data.userId), SESSION_TTL_SECONDS);
    refresh.exec().then(
      () => callback?.(),
      () => callback?.(),
    );
  }
}

/**
 * Adds every stored session to its user's index (user-sessions:<id>), once per Redis data set:
 * sessions written before the index existed would otherwise survive a password change. The
 * store indexes on every write and touch from then on. Returns how many sessions it indexed.
 */
export async function indexStoredSessions(redis: Redis, prefix = "sess:"): Promise<number> {
  const done = "migrations:session-index";
  if (await redis.get(done)) return 0;
  let indexed = 0;
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    cursor = next;
    if (!keys.length) continue;
    const values = await redis.mget(...keys);
    const write = redis.multi();
    keys.forEach((key, i) => {
      const userId = parseSession(values[i] ?? null)?.userId;
      if (!userId) return;
      write.sadd(userSessionsKey(userId), key.slice(prefix.length)).expire(userSessionsKey(userId), SESSION_TTL_SECONDS);
      indexed += 1;
    });
    await write.exec();
  } while (cursor !== "0");
  await redis.set(done, new Date().toISOString());
  return indexed;
}

/** Ends every login session of the user except `keepSid`, on every API process (the sessions live in Redis). */
export async function endUserSessions(redis: Redis, userId: string, keepSid: string, prefix = "sess:"): Promise<string[]> {
  const key = userSessionsKey(userId);
  const others = (await redis.smembers(key)).filter((sid) => sid !== keepSid);
  if (others.length)
    await redis
      .multi()
      .del(...others.map((sid) => prefix + sid))
      .srem(key, ...others)
      .exec();
  return others;
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
