import { healthResponseSchema, readyResponseSchema } from "@storefront/shared";
import { mongoReady } from "@storefront/shared/server";
import { defineRoute, TAGS } from "../define";

export const healthRoutes = [
  defineRoute({
    method: "get",
    paths: ["/health"],
    tag: TAGS.ops,
    summary: "200 while the process lives",
    auth: "none",
    response: healthResponseSchema,
    errors: [],
    handler: () => ({ status: "ok", uptime: process.uptime() }),
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
      const missing: string[] = [];
      if (!(await mongoReady())) missing.push("mongodb");
      const redisOk = await ctx.redis.ping().then(
        (r) => r === "PONG",
        () => false,
      );
      if (!redisOk) missing.push("redis");
      else missing.push(...(await ctx.missingWorkers()).map((q) => `worker:${q}`));
      res.status(missing.length ? 503 : 200);
      return { status: missing.length ? "unavailable" : "ready", missing };
    },
  }),
];
