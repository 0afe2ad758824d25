/**
 * The Redis session store: a session's expiry is pushed forward at most once a minute per process
 * (not on every response), and a write or a logout is never held back by that.
 */
import { randomUUID } from "node:crypto";
import type { SessionData } from "express-session";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, inject, it, vi } from "vitest";
import { RedisSessionStore, SESSION_TOUCH_INTERVAL_MS } from "../../api/src/middleware/session";

const redis = new Redis(inject("redisUrl"));
const WEEK_MS = 7 * 24 * 3600 * 1000;

afterEach(() => {
  vi.useRealTimers();
});

afterAll(() => {
  redis.disconnect();
});

const session = (userId: string): SessionData =>
  ({ cookie: { originalMaxAge: WEEK_MS, expires: new Date(Date.now() + WEEK_MS) }, userId }) as unknown as SessionData;
const call = (run: (done: (err?: unknown) => void) => void) =>
  new Promise<void>((resolve, reject) => run((err) => (err ? reject(err as Error) : resolve())));

/** A session written through a store of its own, under a prefix of its own. */
async function storedSession() {
  const prefix = `sess-test-${randomUUID()}:`;
  const store = new RedisSessionStore(redis, prefix);
  const sid = randomUUID();
  const data = session(`user-${sid}`);
  await call((done) => store.set(sid, data, done));
  return { prefix, store, sid, data };
}

describe("RedisSessionStore", () => {
  it("refreshes a session's expiry at most once a minute per process, and always after that", async () => {
    const { prefix, store, sid, data } = await storedSession();
    expect(await redis.ttl(prefix + sid)).toBeGreaterThan(WEEK_MS / 1000 - 10);

    // Shortened behind the store's back: a touch right after the write leaves it alone.
    await redis.expire(prefix + sid, 100);
    await call((done) => store.touch(sid, data, done));
    expect(await redis.ttl(prefix + sid)).toBeLessThanOrEqual(100);

    // Another process (its own store) has not refreshed it yet: it does.
    const other = new RedisSessionStore(redis, prefix);
    await call((done) => other.touch(sid, data, done));
    expect(await redis.ttl(prefix + sid)).toBeGreaterThan(WEEK_MS / 1000 - 10);

    // A minute later the first process refreshes it again.
    await redis.expire(prefix + sid, 100);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + SESSION_TOUCH_INTERVAL_MS + 1 });
    await call((done) =>
      store.touch(sid, { ...data, cookie: { ...data.cookie, expires: new Date(Date.now() + WEEK_MS) } } as SessionData, done),
    );
    expect(await redis.ttl(prefix + sid)).toBeGreaterThan(WEEK_MS / 1000 - 10);
  });

  it("forgets a destroyed session's refresh, so a new write under its id is refreshed as usual", async () => {
    const { prefix, store, sid, data } = await storedSession();
    await call((done) => store.destroy(sid, done));
    expect(await redis.exists(prefix + sid)).toBe(0);
    // Written again elsewhere (another process) with a short expiry; this process refreshes it.
    await redis.set(prefix + sid, JSON.stringify(data), "EX", 100);
    await call((done) => store.touch(sid, data, done));
    expect(await redis.ttl(prefix + sid)).toBeGreaterThan(WEEK_MS / 1000 - 10);
  });
});
