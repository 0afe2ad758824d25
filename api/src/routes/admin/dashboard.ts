import { Router } from "express";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { dashboardStats } from "../../services/admin-dashboard";

export function adminDashboardRoutes(_ctx: AppContext): Router {
  const router = Router();
  router.get(["/admin/dashboard-data.php", "/admin/dashboard"], requireAdmin("stats:view"), async (_req, res) => {
    res.json({ success: true, stats: await dashboardStats() });
  });
  return router;
}
