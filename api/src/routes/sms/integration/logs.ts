import { Router } from "express";
import { smsLogsQuerySchema } from "@storefront/shared";
import type { AppContext } from "../../../context";
import { requireAdmin } from "../../../middleware/auth";
import { handle } from "../../../middleware/validate";
import { smsLogs, smsMessages, smsStats } from "../../../services/sms-logs";

export function smsLogsRoutes(_ctx: AppContext): Router {
  const router = Router();
  router.get(
    ["/sms/integration/logs.php", "/sms/integration/logs"],
    requireAdmin("sms:view"),
    handle(smsLogsQuerySchema, "query", async (query) => {
      const data =
        query.view === "stats"
          ? await smsStats(query)
          : query.view === "messages"
            ? await smsMessages(query)
            : await smsLogs(query);
      return { success: true, action: query.view, data };
    }),
  );
  return router;
}
