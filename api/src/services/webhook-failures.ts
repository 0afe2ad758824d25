/**
 * Failed SMS webhook calls (bad signature, malformed body, bad fields) cost the sender nothing,
 * so they are limited and collapsed: per client address and minute, at most
 * WEBHOOK_FAILURE_LIMIT_PER_MINUTE are looked at (the rest answer 429 before any work), and they
 * share ONE webhook_error row that carries their count, instead of a row each. Every failure is
 * also a metric. Counters live in Redis, shared by all API processes.
 */
import type { Redis } from "ioredis";
import type { Config } from "@storefront/shared/server";
import { logWebhookError, recordWebhookOutcome } from "@storefront/shared/server";
import { rateLimited } from "../errors";
import { clientKey, count, exhausted } from "../middleware/rate-limit";
import { MESSAGES } from "@storefront/shared";

const WEBHOOK_FAILURE_WINDOW_SECONDS = 60;

type Deps = { redis: Redis; config: Pick<Config, "WEBHOOK_FAILURE_LIMIT_PER_MINUTE"> };

/** Per client (an IPv6 address by its /64: clientKey). */
const limitKey = (ip: string) => `webhook-failures:${clientKey(ip)}`;

/** Throws a 429 when this address already failed too often in the current window. */
export async function refuseThrottledWebhook(deps: Deps, ip: string): Promise<void> {
  const over = await exhausted(
    deps.redis,
    limitKey(ip),
    deps.config.WEBHOOK_FAILURE_LIMIT_PER_MINUTE,
    WEBHOOK_FAILURE_WINDOW_SECONDS,
  );
  if (!over) return;
  recordWebhookOutcome("throttled");
  throw rateLimited(MESSAGES.tooManyRequests, over.retryAfter);
}

/**
 * Counts a failed call and folds it into its window's webhook_error row (one per address and
 * clock minute, created by the first failure, its count and last reason updated by the next
 * ones). Calls past the limit are counted in the metric only.
 */
export async function recordWebhookFailure(deps: Deps, outcome: string, reason: string, ip: string): Promise<void> {
  recordWebhookOutcome(outcome);
  const counted = await count(
    deps.redis,
    limitKey(ip),
    deps.config.WEBHOOK_FAILURE_LIMIT_PER_MINUTE,
    WEBHOOK_FAILURE_WINDOW_SECONDS,
  );
  if (!counted.allowed) return;
  const windowStart = Math.floor(Date.now() / 1000 / WEBHOOK_FAILURE_WINDOW_SECONDS) * WEBHOOK_FAILURE_WINDOW_SECONDS;
  const key = `error:${ip}:${windowStart}`;
  const tally = `webhook-failure-rows:${key}`;
  const [[, n] = []] =
    (await deps.redis
      .multi()
      .incr(tally)
      .expire(tally, 2 * WEBHOOK_FAILURE_WINDOW_SECONDS)
      .exec()) ?? [];
  await logWebhookError(key, {
    reason,
    ip,
    count: Number(n),
    window_start: new Date(windowStart * 1000).toISOString(),
    window_seconds: WEBHOOK_FAILURE_WINDOW_SECONDS,
  });
}
