import { Router } from "express";
import { smsGatewayConfigDeleteSchema, smsGatewayConfigSaveSchema, smsGatewayConfigUpdateSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { recordAudit } from "../../services/audit";
import { createGateway, deleteGateway, listGateways, updateGateway } from "../../services/sms-gateways";

/** The gateway as listed (password masked), for the audit log's before/after. */
async function gatewayView(id: string) {
  return (await listGateways()).find((g) => g.id === id) ?? null;
}

const PATHS = ["/admin/sms-config.php", "/admin/sms-config"];

export function adminSmsConfigRoutes(_ctx: AppContext): Router {
  const router = Router();
  router.get(PATHS, requireAdmin("sms:view"), async (_req, res) => {
    res.json({ success: true, configs: await listGateways() });
  });
  router.post(
    PATHS,
    requireAdmin("sms:manage"),
    handle(smsGatewayConfigSaveSchema, "body", async ({ id, ...input }, req, res) => {
      const before = id ? await gatewayView(id) : null;
      const config = id ? await updateGateway(id, input) : await createGateway(input);
      await recordAudit(req.admin!, {
        action: id ? "sms_gateway.update" : "sms_gateway.create",
        targetType: "sms_gateway",
        targetId: config.id,
        before,
        after: config,
      });
      if (!id) res.status(201);
      return { success: true, config };
    }),
  );
  router.put(
    PATHS,
    requireAdmin("sms:manage"),
    handle(smsGatewayConfigUpdateSchema, "body", async ({ id, ...input }, req) => {
      const before = await gatewayView(id);
      const config = await updateGateway(id, input);
      await recordAudit(req.admin!, {
        action: "sms_gateway.update",
        targetType: "sms_gateway",
        targetId: id,
        before,
        after: config,
      });
      return { success: true, config };
    }),
  );
  router.delete(
    PATHS,
    requireAdmin("sms:manage"),
    handle(smsGatewayConfigDeleteSchema, "query", async ({ id }, req) => {
      const before = await gatewayView(id);
      await deleteGateway(id);
      await recordAudit(req.admin!, {
        action: "sms_gateway.delete",
        targetType: "sms_gateway",
        targetId: id,
        before,
        after: null,
      });
      return { success: true };
    }),
  );
  return router;
}
