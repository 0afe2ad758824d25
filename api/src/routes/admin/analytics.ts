import { analyticsQuerySchema, analyticsResponseSchema } from "@storefront/shared";
import { analytics, analyticsCsv } from "../../services/analytics";
import { defineRoute, TAGS } from "../define";

export const adminAnalyticsRoutes = [
  defineRoute({
    method: "get",
    paths: ["/admin/analytics.php", "/admin/analytics"],
    tag: TAGS.admin,
    summary:
      "Per UTC day from..to (at most 366 days, the last 30 by default): coins spent per feature, active users, signups, packages sold and revenue, redemptions, charged jobs completed and failed per queue; format=csv answers one text/csv row per day",
    auth: "admin",
    permission: "stats:view",
    query: analyticsQuerySchema,
    response: analyticsResponseSchema,
    errors: [400],
    handler: async ({ query, res }) => {
      const result = await analytics(query);
      if (query.format !== "csv") return result;
      res.setHeader("Content-Type", "text/csv; charset=utf-8");
      res.setHeader("Content-Disposition", `attachment; filename="analytics-${query.from}-${query.to}.csv"`);
      res.setHeader("Cache-Control", "no-store");
      res.send(analyticsCsv(result));
      return undefined;
    },
  }),
];
