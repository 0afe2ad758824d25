/** Limits of the SMS worker on rate-limiter-flexible (Redis, shared by every worker process). */
import type { Redis } from "ioredis";
import { RateLimiterRes } from "rate-limiter-flexible";
import { rateLimiterFor } from "@storefront/shared/server";

const RATE_WINDOW_SECONDS = 60;

interface Window {
  /** Key prefix of the counters and of the passes. */
  prefix: string;
  /** Whose counter: a phone, a user and day. */
  key: string;
  /** The message the slot is for: a retried job finds its own pass and goes through again without using a second slot. */
  passId: string;
  points: number;
  seconds: number;
}

/** Takes one slot of the window for `passId`, or finds the one it took before; false when the window is full. */
async function takeSlot(redis: Redis, window: Window): Promise<boolean> {
  const passKey = `${window.prefix}:pass:${window.passId}`;
  if (await redis.exists(passKey)) return true;
  const limiter = rateLimiterFor(redis, { keyPrefix: window.prefix, points: window.points, duration: window.seconds });
  try {
    await limiter.consume(window.key);
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
  await redis.set(passKey, "1", "EX", window.seconds);
  return true;
}

/** The per-phone limit on answered messages (integration setting rate_limit_per_minute). */
export function allowedByRateLimit(redis: Redis, phone: string, messageKey: string, limit: number): Promise<boolean> {
  return takeSlot(redis, { prefix: "sms:rate", key: phone, passId: messageKey, points: limit, seconds: RATE_WINDOW_SECONDS });
}

/**
 * The low-balance SMS a user may get on one UTC day (LOW_BALANCE_SMS_PER_DAY): `day` is in the
 * key, so the count starts again each day; the window only has to outlive it.
 */
export function allowedLowBalanceSms(
  redis: Redis,
  userId: string,
  day: string,
  alertId: string,
  perDay: number,
): Promise<boolean> {
  return takeSlot(redis, {
    prefix: "sms:low-balance",
    key: `${userId}:${day}`,
    passId: alertId,
    points: perDay,
    seconds: 2 * 24 * 3600,
  });
}
