import type { Request } from "express";
import {
  smsGatewayTestResponseSchema,
  smsIntegrationActionSchema,
  smsIntegrationConfigRequestSchema,
  smsIntegrationConfigResponseSchema,
} from "@storefront/shared";
import type { AppContext } from "../../../context";
import { recordAudit } from "../../../services/audit";
import { rotateWebhookSecret, saveSmsConfig, smsConfigView, testSmsGateway } from "../../../services/sms-config";
import { defineRoute, TAGS } from "../../define";

const PATHS = ["/sms/integration/config.php", "/sms/integration/config"] as const;

const baseUrl = (ctx: AppContext, req: Request) =>
  ctx.config.PUBLIC_BASE_URL ?? `${req.protocol}://${req.get("host") ?? "localhost"}`;

export const smsConfigRoutes = [
  defineRoute({
    method: "get",
    paths: PATHS,
    tag: TAGS.sms,
    summary: "SMS integration configuration (secrets never answered: only whether each is set)",
    auth: "admin",
    permission: "sms:view",
    response: smsIntegrationConfigResponseSchema,
    errors: [401, 403],
    handler: async ({ req, ctx }) => ({ success: true as const, config: await smsConfigView(baseUrl(ctx, req)) }),
  }),

  defineRoute({
    method: "post",
    paths: PATHS,
    tag: TAGS.sms,
    summary: "Save the SMS integration configuration (the full config)",
    auth: "admin",
    permission: "sms:manage",
    body: smsIntegrationConfigRequestSchema,
    response: smsIntegrationConfigResponseSchema,
    errors: [400, 401, 403],
    handler: async ({ body, req, ctx }) => {
      const before = await smsConfigView(baseUrl(ctx, req));
      const config = await saveSmsConfig(body, baseUrl(ctx, req), ctx.config.SMS_GATEWAY_ALLOW_PRIVATE);
      await recordAudit(req.admin!, {
        action: "sms_integration.update",
        targetType: "sms_integration",
        targetId: null,
        before,
        after: config,
      });
      return { success: true as const, config };
    },
  }),

  defineRoute({
    method: "put",
    paths: PATHS,
    tag: TAGS.sms,
    summary:
      'Gateway actions: {action: "test_gateway"} (the stored settings, or the form\'s unsaved URL and credentials; the gateway\'s answer is never echoed), {action: "rotate_webhook_secret", keep_previous?} (the new secret is answered once; the previous one stays valid for an hour unless keep_previous is false)',
    auth: "admin",
    permission: "sms:manage",
    body: smsIntegrationActionSchema,
    response: smsGatewayTestResponseSchema,
    errors: [400, 401, 403],
    handler: async ({ body, req, ctx }) => {
      if (body.action === "rotate_webhook_secret") {
        const before = await smsConfigView(baseUrl(ctx, req));
        const { webhook_secret, config } = await rotateWebhookSecret(body.keep_previous, baseUrl(ctx, req));
        await recordAudit(req.admin!, {
          action: "sms_integration.rotate_webhook_secret",
          targetType: "sms_integration",
          targetId: null,
          before,
          after: config,
        });
        // The only answer that carries a secret: shown once to whoever rotated it, never stored in the audit log.
        return { success: true as const, webhook_secret, config };
      }
      const { action: _action, ...unsaved } = body;
      const result = await testSmsGateway(unsaved, ctx.config.SMS_GATEWAY_ALLOW_PRIVATE);
      // `success` mirrors the test so a client reading only it still reports a failed test.
      return { success: result.success, test_result: result, ...(result.error ? { error: result.error } : {}) };
    },
  }),
];
