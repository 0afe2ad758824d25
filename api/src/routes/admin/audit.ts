import { auditLogQuerySchema, auditLogResponseSchema } from "@storefront/shared";
import { listAudit } from "../../services/audit";
import { defineRoute, TAGS } from "../define";

export const adminAuditRoutes = [
  defineRoute({
    method: "get",
    paths: ["/admin/audit-log.php", "/admin/audit-log"],
    tag: TAGS.admin,
    summary: "Audit log of administrator actions",
    auth: "admin",
    permission: "audit:view",
    query: auditLogQuerySchema,
    response: auditLogResponseSchema,
    errors: [400, 401, 403],
    handler: ({ query }) => listAudit(query),
  }),
];
