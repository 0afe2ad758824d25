/** The per-phone limit on answered messages (integration setting rate_limit_per_minute). */
import type { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

const RATE_WINDOW_SECONDS = 60;

/**
 * Per-phone window on rate-limiter-flexible (Redis, shared by every worker). A retried job finds
 * its own pass and goes through again without using a second slot.
 */
export async function allowedByRateLimit(redis: Redis, phone: string, messageId: string, limit: number): Promise<boolean> {
  const passKey = `sms:rate:pass:${messageId}`;
  if (await redis.exists(passKey)) return true;
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: "sms:rate",
    points: limit,
    duration: RATE_WINDOW_SECONDS,
  });
  try {
    await limiter.consume(phone);
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
  await redis.set(passKey, "1", "EX", RATE_WINDOW_SECONDS);
  return true;
}
