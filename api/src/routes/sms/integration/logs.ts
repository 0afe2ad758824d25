import { smsLogsQuerySchema, smsLogsResponseSchema } from "@storefront/shared";
import { smsLogs, smsMessages, smsStats } from "../../../services/sms-logs";
import { defineRoute, TAGS } from "../../define";

export const smsLogsRoutes = [
  defineRoute({
    method: "get",
    paths: ["/sms/integration/logs.php", "/sms/integration/logs"],
    tag: TAGS.sms,
    summary: "SMS logs, messages or stats (action=logs|messages|stats), pages of 20",
    auth: "admin",
    permission: "sms:view",
    query: smsLogsQuerySchema,
    response: smsLogsResponseSchema,
    errors: [400, 401, 403],
    handler: async ({ query }) => {
      if (query.view === "stats") return { success: true as const, action: query.view, data: await smsStats(query) };
      if (query.view === "messages") return { success: true as const, action: query.view, data: await smsMessages(query) };
      return { success: true as const, action: query.view, data: await smsLogs(query) };
    },
  }),
];
