import { createQueues, METRICS_CONTENT_TYPE, renderMetrics, startDefaultMetrics } from "@storefront/shared/server";
import { defineRawRoute, TAGS } from "../define";

/** GET /api/metrics: Prometheus text format, this process plus cluster-wide queue, job and wallet figures. */
export const metricsRoutes = [
  defineRawRoute({
    method: "get",
    paths: ["/metrics"],
    tag: TAGS.ops,
    summary: "Prometheus metrics (text format): Bearer METRICS_TOKEN or an admin session with stats:view",
    auth: "metrics",
    response: { contentType: "text/plain", description: "Prometheus text exposition format" },
    errors: [401, 403],
    raw: (ctx) => {
      startDefaultMetrics("api");
      // Queue handles on the shared connection: only counts are read from them.
      const queues = createQueues(ctx.redis);
      return async (_req, res) => {
        const text = await renderMetrics({ redis: ctx.redis, queues });
        res.setHeader("Content-Type", METRICS_CONTENT_TYPE);
        res.setHeader("Cache-Control", "no-store");
        res.send(text);
      };
    },
  }),
];
