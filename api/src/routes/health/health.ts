import { healthResponseSchema, readyResponseSchema } from "@storefront/shared";
import { mongoReady, within } from "@storefront/shared/server";
import { noteRedisUnresponsive } from "../../middleware/dependencies";
import { defineRoute, TAGS } from "../define";

/**
 * Each readiness check gives up after this long: the probe answers within a second, with half of it
 * left for the request itself on a busy process (a loaded test run answered in 1,034 ms at 900 and
 * in 1,028 ms at 750). A dependency that takes longer than this to answer a ping is not ready.
 */
const CHECK_MS = 500;

export const healthRoutes = [
  defineRoute({
    method: "get",
    paths: ["/health"],
    tag: TAGS.ops,
    summary: "200 while the process lives",
    auth: "none",
    response: healthResponseSchema,
    errors: [],
    handler: () => ({ status: "ok" as const, uptime: process.uptime() }),
  }),

  defineRoute({
    method: "get",
    paths: ["/ready"],
    tag: TAGS.ops,
    summary: "200 when MongoDB, Redis and a worker per queue are reachable, else 503 naming what is missing",
    auth: "none",
    response: readyResponseSchema,
    errors: [503],
    handler: async ({ res, ctx }) => {
      // All checks at once, each bounded: the answer comes within CHECK_MS whatever hangs.
      const [mongoOk, redisOk, workers] = await Promise.all([
        within(mongoReady(), CHECK_MS, false),
        within(
          ctx.redis.ping().then((r) => r === "PONG"),
          CHECK_MS,
          false,
        ),
        within<string[] | null>(ctx.missingWorkers(), CHECK_MS, null),
      ]);
      const missing: string[] = [];
      if (!mongoOk) missing.push("mongodb");
      // Connected but silent: the calls that follow are refused at once instead of each waiting.
      if (!redisOk && ctx.redis.status === "ready") noteRedisUnresponsive(ctx.redis);
      if (!redisOk) missing.push("redis");
      else missing.push(...(workers === null ? ["workers"] : workers.map((q) => `worker:${q}`)));
      res.status(missing.length ? 503 : 200);
      return { status: missing.length ? ("unavailable" as const) : ("ready" as const), missing };
    },
  }),
];
