import type { Redis } from "ioredis";
import ipaddr from "ipaddr.js";
import { RateLimiterRes } from "rate-limiter-flexible";
import { rateLimiterFor } from "@storefront/shared/server";
import { rateLimited } from "../errors";

/**
 * The client an address stands for in a per-address limit: an IPv4 address as it is, an IPv6 one
 * by its /64 (one subscriber's network: a host picks any of its 2^64 addresses for nothing). An
 * IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return ip || "unknown";
  const parsed = ipaddr.process(ip);
  if (parsed instanceof ipaddr.IPv4) return parsed.toString();
  return `${new ipaddr.IPv6([...parsed.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

/** The API's limiter of `limit` hits per `windowSeconds` (counters under "rl:"). */
const limiterOf = (redis: Redis, limit: number, windowSeconds: number) =>
  rateLimiterFor(redis, { keyPrefix: "rl", points: limit, duration: windowSeconds });

export interface Counted {
  allowed: boolean;
  /** Hits in the current window, this one included. */
  count: number;
  /** Seconds until the window ends. */
  retryAfter: number;
}

/**
 * Counts one hit of `key` in a fixed window in Redis, shared by every API process (and the
 * workers). A Redis failure is thrown as it is: it is not a refusal.
 */
export async function count(redis: Redis, key: string, limit: number, windowSeconds: number): Promise<Counted> {
  const toCounted = (res: RateLimiterRes, allowed: boolean): Counted => ({
    allowed,
    count: res.consumedPoints,
    retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  });
  try {
    return toCounted(await limiterOf(redis, limit, windowSeconds).consume(key), true);
  } catch (error) {
    if (error instanceof RateLimiterRes) return toCounted(error, false);
    throw error;
  }
}

/** Whether `key` is already past `limit` in its window, without counting a hit. */
export async function exhausted(redis: Redis, key: string, limit: number, windowSeconds: number): Promise<Counted | null> {
  const res = await limiterOf(redis, limit, windowSeconds).get(key);
  if (!res || res.consumedPoints < limit) return null;
  return { allowed: false, count: res.consumedPoints, retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}

/** Counts a hit and throws a 429 AppError (with Retry-After) once `limit` hits land in the window. */
export async function hit(redis: Redis, key: string, limit: number, windowSeconds: number, message: string): Promise<void> {
  const counted = await count(redis, key, limit, windowSeconds);
  if (!counted.allowed) throw rateLimited(message, counted.retryAfter);
}

/** Gives one hit of `key`'s current window back (never below none: a refund is not credit). */
export async function refund(redis: Redis, key: string, limit: number, windowSeconds: number): Promise<void> {
  const limiter = limiterOf(redis, limit, windowSeconds);
  const res = await limiter.get(key);
  if (res && res.consumedPoints > 0) await limiter.reward(key, 1);
}
