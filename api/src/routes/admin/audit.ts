import { Router } from "express";
import { auditLogQuerySchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { listAudit } from "../../services/audit";

export function adminAuditRoutes(_ctx: AppContext): Router {
  const router = Router();
  router.get(
    ["/admin/audit-log.php", "/admin/audit-log"],
    requireAdmin("audit:view"),
    handle(auditLogQuerySchema, "query", listAudit),
  );
  return router;
}
