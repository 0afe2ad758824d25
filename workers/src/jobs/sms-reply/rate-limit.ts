/** The per-phone limit on answered messages (integration setting rate_limit_per_minute). */
import type { Redis } from "ioredis";

const RATE_WINDOW_MS = 60_000;
/**
 * Sliding window per phone: a sorted set of the message ids allowed in the last minute. A
 * retried job finds its own id and passes again without using a second slot.
 */
const RATE_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local member = ARGV[4]
if redis.call('ZSCORE', key, member) then return 1 end
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= limit then return 0 end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
return 1
`;

export async function allowedByRateLimit(
  redis: Redis,
  phone: string,
  messageId: string,
  limit: number,
  now = Date.now(),
): Promise<boolean> {
  const result = await redis.eval(RATE_SCRIPT, 1, `sms:rate:${phone}`, now, RATE_WINDOW_MS, limit, messageId);
  return result === 1;
}
