import { Router } from "express";
import { mongoReady } from "@storefront/shared/server";
import type { AppContext } from "../../context";

export function healthRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get("/health", (_req, res) => {
    res.json({ status: "ok", uptime: process.uptime() });
  });

  router.get("/ready", async (_req, res) => {
    const missing: string[] = [];
    if (!(await mongoReady())) missing.push("mongodb");
    const redisOk = await ctx.redis.ping().then(
      (r) => r === "PONG",
      () => false,
    );
    if (!redisOk) missing.push("redis");
    else missing.push(...(await ctx.missingWorkers()).map((q) => `worker:${q}`));
    res.status(missing.length ? 503 : 200).json({ status: missing.length ? "unavailable" : "ready", missing });
  });

  return router;
}
