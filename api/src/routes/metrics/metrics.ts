import { timingSafeEqual } from "node:crypto";
import { Router, type RequestHandler } from "express";
import { createQueues, METRICS_CONTENT_TYPE, renderMetrics, startDefaultMetrics } from "@storefront/shared/server";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Prometheus scrapes with `Authorization: Bearer $METRICS_TOKEN`; admins with stats:view may look too. */
function metricsAccess(token: string | undefined): RequestHandler {
  const admin = requireAdmin("stats:view");
  return (req, res, next) => {
    const header = req.headers.authorization ?? "";
    const bearer = /^Bearer (.+)$/u.exec(header)?.[1];
    if (token && bearer && sameSecret(bearer, token)) return next();
    return admin(req, res, next);
  };
}

/** GET /api/metrics: Prometheus text format, this process plus cluster-wide queue, job and wallet figures. */
export function metricsRoutes(ctx: AppContext): Router {
  const router = Router();
  startDefaultMetrics("api");
  // Queue handles on the shared connection: only counts are read from them.
  const queues = createQueues(ctx.redis);

  router.get("/metrics", metricsAccess(ctx.config.METRICS_TOKEN), async (_req, res) => {
    const text = await renderMetrics({ redis: ctx.redis, queues });
    res.setHeader("Content-Type", METRICS_CONTENT_TYPE);
    res.setHeader("Cache-Control", "no-store");
    res.send(text);
  });

  return router;
}
