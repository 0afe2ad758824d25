import {
  smsGatewayConfigDeleteSchema,
  smsGatewayConfigResponseSchema,
  smsGatewayConfigSaveSchema,
  smsGatewayConfigsResponseSchema,
  smsGatewayConfigUpdateSchema,
  successSchema,
} from "@storefront/shared";
import { recordAudit } from "../../services/audit";
import { createGateway, deleteGateway, listGateways, updateGateway } from "../../services/sms-gateways";
import { defineRoute, TAGS } from "../define";

/** The gateway as listed (password masked), for the audit log's before/after. */
async function gatewayView(id: string) {
  return (await listGateways()).find((g) => g.id === id) ?? null;
}

const PATHS = ["/admin/sms-config.php", "/admin/sms-config"] as const;

export const adminSmsConfigRoutes = [
  defineRoute({
    method: "get",
    paths: PATHS,
    tag: TAGS.admin,
    summary: "SMS gateway configurations",
    auth: "admin",
    permission: "sms:view",
    response: smsGatewayConfigsResponseSchema,
    errors: [401, 403],
    handler: async () => ({ success: true as const, configs: await listGateways() }),
  }),

  defineRoute({
    method: "post",
    paths: PATHS,
    tag: TAGS.admin,
    summary: "Create an SMS gateway configuration (201), or update one when the body carries its id (200)",
    auth: "admin",
    permission: "sms:manage",
    body: smsGatewayConfigSaveSchema,
    response: smsGatewayConfigResponseSchema,
    status: 201,
    errors: [400, 401, 403, 404, 409],
    handler: async ({ body: { id, ...input }, req, res }) => {
      const before = id ? await gatewayView(id) : null;
      const config = id ? await updateGateway(id, input) : await createGateway(input);
      await recordAudit(req.admin!, {
        action: id ? "sms_gateway.update" : "sms_gateway.create",
        targetType: "sms_gateway",
        targetId: config.id,
        before,
        after: config,
      });
      if (id) res.status(200);
      return { success: true as const, config };
    },
  }),

  defineRoute({
    method: "put",
    paths: PATHS,
    tag: TAGS.admin,
    summary: "Update an SMS gateway configuration",
    auth: "admin",
    permission: "sms:manage",
    body: smsGatewayConfigUpdateSchema,
    response: smsGatewayConfigResponseSchema,
    errors: [400, 401, 403, 404, 409],
    handler: async ({ body: { id, ...input }, req }) => {
      const before = await gatewayView(id);
      const config = await updateGateway(id, input);
      await recordAudit(req.admin!, {
        action: "sms_gateway.update",
        targetType: "sms_gateway",
        targetId: id,
        before,
        after: config,
      });
      return { success: true as const, config };
    },
  }),

  defineRoute({
    method: "delete",
    paths: PATHS,
    tag: TAGS.admin,
    summary: "Delete an SMS gateway configuration",
    auth: "admin",
    permission: "sms:manage",
    query: smsGatewayConfigDeleteSchema,
    response: successSchema,
    errors: [400, 401, 403, 404],
    handler: async ({ query: { id }, req }) => {
      const before = await gatewayView(id);
      await deleteGateway(id);
      await recordAudit(req.admin!, {
        action: "sms_gateway.delete",
        targetType: "sms_gateway",
        targetId: id,
        before,
        after: null,
      });
      return { success: true as const };
    },
  }),
];
