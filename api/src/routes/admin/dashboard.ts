import { dashboardResponseSchema } from "@storefront/shared";
import { dashboardStats } from "../../services/admin-dashboard";
import { defineRoute, TAGS } from "../define";

export const adminDashboardRoutes = [
  defineRoute({
    method: "get",
    paths: ["/admin/dashboard-data.php", "/admin/dashboard"],
    tag: TAGS.admin,
    summary: "Dashboard statistics",
    auth: "admin",
    permission: "stats:view",
    response: dashboardResponseSchema,
    errors: [401, 403],
    handler: async () => ({ success: true as const, stats: await dashboardStats() }),
  }),
];
