import { Router } from "express";
import type { AppContext } from "../context";
import { adminAuditRoutes } from "./admin/audit";
import { adminAuthRoutes } from "./admin/auth";
import { adminDashboardRoutes } from "./admin/dashboard";
import { adminPackagesRoutes } from "./admin/packages";
import { adminQueuesRoutes } from "./admin/queues";
import { adminTierRoutes } from "./admin/tier";
import { adminUserPackagesRoutes } from "./admin/user-packages";
import { adminUsersRoutes } from "./admin/users";
import { adminWalletConfigRoutes } from "./admin/wallet-config";
import { authRoutes } from "./auth/auth";
import { chatRoutes } from "./chat/chat";
import { conversationRoutes } from "./conversations/conversations";
import { healthRoutes } from "./health/health";
import { metricsRoutes } from "./metrics/metrics";
import { docsRoutes } from "./docs/docs";
import { smsAiRoutes } from "./sms/ai/ai";
import { profileRoutes } from "./user/profile";
import { walletRoutes } from "./wallet/wallet";

/** Every API area, mounted under /api. */
export function apiRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use(healthRoutes(ctx));
  router.use(metricsRoutes(ctx));
  router.use(docsRoutes(ctx));
  router.use(authRoutes(ctx));
  router.use(profileRoutes(ctx));
  router.use(walletRoutes(ctx));
  router.use(smsAiRoutes(ctx));
  router.use(chatRoutes(ctx));
  router.use(conversationRoutes(ctx));
  router.use(adminAuthRoutes(ctx));
  router.use(adminTierRoutes(ctx));
  router.use(adminDashboardRoutes(ctx));
  router.use(adminUsersRoutes(ctx));
  router.use(adminPackagesRoutes(ctx));
  router.use(adminUserPackagesRoutes(ctx));
  router.use(adminWalletConfigRoutes(ctx));
  router.use(adminAuditRoutes(ctx));
  router.use(adminQueuesRoutes(ctx));
  return router;
}
