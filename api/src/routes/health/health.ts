import { Router } from "express";
import { mongoReady, within } from "@storefront/shared/server";
import type { AppContext } from "../../context";

/** Each readiness check gives up after this long: the probe answers within a second. */
const CHECK_MS = 900;

export function healthRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get("/health", (_req, res) => {
    res.json({ status: "ok", uptime: process.uptime() });
  });

  router.get("/ready", async (_req, res) => {
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
    if (!redisOk) missing.push("redis");
    else missing.push(...(workers === null ? ["workers"] : workers.map((q) => `worker:${q}`)));
    res.status(missing.length ? 503 : 200).json({ status: missing.length ? "unavailable" : "ready", missing });
  });

  return router;
}
