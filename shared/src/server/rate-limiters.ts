/** rate-limiter-flexible's Redis limiters, one per connection and window shape. */
import type { Redis } from "ioredis";
import { RateLimiterRedis } from "rate-limiter-flexible";

export interface LimiterShape {
  /** Prefix of the counters' keys. */
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}

const limiters = new WeakMap<Redis, Map<string, RateLimiterRedis>>();

/**
 * The limiter of `shape` on `redis`, made once: making one defines its Lua script on the connection
 * again (a SHA-1 and new client methods), which costs more CPU than the Redis call it then makes.
 * The counters live in Redis, so every process shares them.
 */
export function rateLimiterFor(redis: Redis, shape: LimiterShape): RateLimiterRedis {
  let byShape = limiters.get(redis);
  if (!byShape) limiters.set(redis, (byShape = new Map()));
  const id = `${shape.keyPrefix}:${shape.points}:${shape.duration}`;
  let limiter = byShape.get(id);
  if (!limiter) {
    limiter = new RateLimiterRedis({ storeClient: redis, ...shape });
    byShape.set(id, limiter);
  }
  return limiter;
}
