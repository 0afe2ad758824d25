import type { Redis } from "ioredis";
import { rateLimited } from "../errors";

/**
 * Fixed-window counter in Redis, shared by every API process. Throws a 429 AppError once
 * `limit` hits land inside `windowSeconds` for the key.
 */
export async function hit(redis: Redis, key: string, limit: number, windowSeconds: number, message: string): Promise<void> {
  const redisKey = `rl:${key}`;
  const results = await redis.multi().incr(redisKey).expire(redisKey, windowSeconds, "NX").ttl(redisKey).exec();
  const count = Number(results?.[0]?.[1] ?? 0);
  const ttl = Number(results?.[2]?.[1] ?? windowSeconds);
  if (count > limit) throw rateLimited(message, Math.max(1, ttl));
}
