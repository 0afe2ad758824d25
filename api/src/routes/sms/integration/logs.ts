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
      const data =
        query.view === "stats"
          ? await smsStats(query)
          : query.view === "messages"
            ? await smsMessages(query)
            : await smsLogs(query);
      return { success: true, action: query.view, data };
    },
  }),
];
