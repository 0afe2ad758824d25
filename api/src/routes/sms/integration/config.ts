import { Router, type Request } from "express";
import { smsIntegrationActionSchema, smsIntegrationConfigRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../../context";
import { requireAdmin } from "../../../middleware/auth";
import { handle } from "../../../middleware/validate";
import { recordAudit } from "../../../services/audit";
import { rotateWebhookSecret, saveSmsConfig, smsConfigView, testSmsGateway } from "../../../services/sms-config";

const PATHS = ["/sms/integration/config.php", "/sms/integration/config"];

export function smsConfigRoutes(ctx: AppContext): Router {
  const router = Router();
  const baseUrl = (req: Request) => ctx.config.PUBLIC_BASE_URL ?? `${req.protocol}://${req.get("host") ?? "localhost"}`;

  router.get(PATHS, requireAdmin("sms:view"), async (req, res) => {
    res.json({ success: true, config: await smsConfigView(baseUrl(req)) });
  });

  router.post(
    PATHS,
    requireAdmin("sms:manage"),
    handle(smsIntegrationConfigRequestSchema, "body", async (input, req) => {
      const before = await smsConfigView(baseUrl(req));
      const config = await saveSmsConfig(input, baseUrl(req));
      await recordAudit(req.admin!, {
        action: "sms_integration.update",
        targetType: "sms_integration",
        targetId: null,
        before,
        after: config,
      });
      return { success: true, config };
    }),
  );

  router.put(
    PATHS,
    requireAdmin("sms:manage"),
    handle(smsIntegrationActionSchema, "body", async (input, req) => {
      if (input.action === "rotate_webhook_secret") {
        const before = await smsConfigView(baseUrl(req));
        const { webhook_secret, config } = await rotateWebhookSecret(input.keep_previous, baseUrl(req));
        await recordAudit(req.admin!, {
          action: "sms_integration.rotate_webhook_secret",
          targetType: "sms_integration",
          targetId: null,
          before,
          after: config,
        });
        // The only answer that carries a secret: shown once to whoever rotated it, never stored in the audit log.
        return { success: true, webhook_secret, config };
      }
      const { action: _action, ...unsaved } = input;
      const result = await testSmsGateway(unsaved, ctx.config.SMS_GATEWAY_ALLOW_PRIVATE);
      // `success` mirrors the test so a client reading only it still reports a failed test.
      return { success: result.success, test_result: result, ...(result.error ? { error: result.error } : {}) };
    }),
  );
  return router;
}
