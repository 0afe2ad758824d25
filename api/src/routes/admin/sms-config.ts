import { Router } from "express";
import { smsGatewayConfigDeleteSchema, smsGatewayConfigSaveSchema, smsGatewayConfigUpdateSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { createGateway, deleteGateway, listGateways, updateGateway } from "../../services/sms-gateways";

const PATHS = ["/admin/sms-config.php", "/admin/sms-config"];

export function adminSmsConfigRoutes(_ctx: AppContext): Router {
  const router = Router();
  router.get(PATHS, requireAdmin("sms:view"), async (_req, res) => {
    res.json({ success: true, configs: await listGateways() });
  });
  router.post(
    PATHS,
    requireAdmin("sms:manage"),
    handle(smsGatewayConfigSaveSchema, "body", async ({ id, ...input }, _req, res) => {
      if (id) return { success: true, config: await updateGateway(id, input) };
      res.status(201);
      return { success: true, config: await createGateway(input) };
    }),
  );
  router.put(
    PATHS,
    requireAdmin("sms:manage"),
    handle(smsGatewayConfigUpdateSchema, "body", async ({ id, ...input }) => ({
      success: true,
      config: await updateGateway(id, input),
    })),
  );
  router.delete(
    PATHS,
    requireAdmin("sms:manage"),
    handle(smsGatewayConfigDeleteSchema, "query", async ({ id }) => {
      await deleteGateway(id);
      return { success: true };
    }),
  );
  return router;
}
