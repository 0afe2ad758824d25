import type { Request } from "express";
import {
  smsGatewayTestResponseSchema,
  smsIntegrationActionSchema,
  smsIntegrationConfigRequestSchema,
  smsIntegrationConfigResponseSchema,
} from "@storefront/shared";
import type { AppContext } from "../../../context";
import { recordAudit } from "../../../services/audit";
import { saveSmsConfig, smsConfigView, testSmsGateway } from "../../../services/sms-config";
import { defineRoute, TAGS } from "../../define";

const PATHS = ["/sms/integration/config.php", "/sms/integration/config"] as const;

const baseUrl = (ctx: AppContext, req: Request) =>
  ctx.config.PUBLIC_BASE_URL ?? `${req.protocol}://${req.get("host") ?? "localhost"}`;

export const smsConfigRoutes = [
  defineRoute({
    method: "get",
    paths: PATHS,
    tag: TAGS.sms,
    summary: "SMS integration configuration (secrets masked)",
    auth: "admin",
    permission: "sms:view",
    response: smsIntegrationConfigResponseSchema,
    errors: [401, 403],
    handler: async ({ req, ctx }) => ({ success: true, config: await smsConfigView(baseUrl(ctx, req)) }),
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
      const config = await saveSmsConfig(body, baseUrl(ctx, req));
      await recordAudit(req.admin!, {
        action: "sms_integration.update",
        targetType: "sms_integration",
        targetId: null,
        before,
        after: config,
      });
      return { success: true, config };
    },
  }),

  defineRoute({
    method: "put",
    paths: PATHS,
    tag: TAGS.sms,
    summary: 'Gateway actions: {action: "test_gateway"}',
    auth: "admin",
    permission: "sms:manage",
    body: smsIntegrationActionSchema,
    response: smsGatewayTestResponseSchema,
    errors: [400, 401, 403],
    handler: async () => {
      const result = await testSmsGateway();
      // `success` mirrors the test so a client reading only it still reports a failed test.
      return { success: result.success, test_result: result, ...(result.error ? { error: result.error } : {}) };
    },
  }),
];
