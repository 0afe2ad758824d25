import { Router } from "express";
import type { AppContext } from "../context";
import { adminAdminsRoutes } from "./admin/admins";
import { adminAuditRoutes } from "./admin/audit";
import { adminAuthRoutes } from "./admin/auth";
import { adminDashboardRoutes } from "./admin/dashboard";
import { adminPackagesRoutes } from "./admin/packages";
import { adminQueuesRoutes } from "./admin/queues";
import { adminSmsConfigRoutes } from "./admin/sms-config";
import { adminTierRoutes } from "./admin/tier";
import { adminUserPackagesRoutes } from "./admin/user-packages";
import { adminUsersRoutes } from "./admin/users";
import { adminAnalyticsRoutes } from "./admin/analytics";
import { adminWalletConfigRoutes } from "./admin/wallet-config";
import { authRoutes } from "./auth/auth";
import { phoneProofRoutes } from "./auth/phone";
import { chatRoutes } from "./chat/chat";
import { conversationRoutes } from "./conversations/conversations";
import type { Route } from "./define";
import { docsRoutes } from "./docs/docs";
import { healthRoutes } from "./health/health";
import { imageRoutes } from "./images/images";
import { mediaRoutes } from "./images/media";
import { metricsRoutes } from "./metrics/metrics";
import { mountRoutes } from "./mount";
import { smsAiRoutes } from "./sms/ai/ai";
import { smsConfigRoutes } from "./sms/integration/config";
import { smsLogsRoutes } from "./sms/integration/logs";
import { smsWebhookRoutes } from "./sms/integration/webhook";
import { smsReceiptRoutes } from "./sms/integration/receipt";
import { storefrontRoutes } from "./storefront/storefront";
import { pushRoutes } from "./push/push";
import { profileRoutes } from "./user/profile";
import { videoRoutes } from "./videos/videos";
import { walletHistoryRoutes } from "./wallet/history";
import { redemptionRoutes } from "./wallet/redeem";
import { walletShopRoutes } from "./wallet/shop";
import { walletRoutes } from "./wallet/wallet";

/**
 * Every call of the API (paths under /api), in mount order. Importable without starting the app:
 * the OpenAPI document (scripts/openapi.ts) and the fuzz suite read it.
 */
export const API_ROUTES: readonly Route[] = [
  ...healthRoutes,
  ...metricsRoutes,
  ...docsRoutes,
  ...authRoutes,
  ...phoneProofRoutes,
  ...profileRoutes,
  ...pushRoutes,
  ...walletRoutes,
  ...walletShopRoutes,
  ...storefrontRoutes,
  ...walletHistoryRoutes,
  ...redemptionRoutes,
  ...adminAnalyticsRoutes,
  ...smsAiRoutes,
  ...chatRoutes,
  ...conversationRoutes,
  ...imageRoutes,
  ...videoRoutes,
  ...mediaRoutes,
  ...adminAuthRoutes,
  ...adminTierRoutes,
  ...adminDashboardRoutes,
  ...adminUsersRoutes,
  ...adminPackagesRoutes,
  ...adminUserPackagesRoutes,
  ...adminWalletConfigRoutes,
  ...adminAuditRoutes,
  ...adminAdminsRoutes,
  ...adminQueuesRoutes,
  ...adminSmsConfigRoutes,
  ...smsConfigRoutes,
  ...smsLogsRoutes,
  ...smsWebhookRoutes,
  ...smsReceiptRoutes,
];

const readsOwnBody = (route: Route) => route.kind === "raw" && route.ownBody === true;

/** The routes that read their own raw body (the signed webhook): mounted before the JSON parser and the session. */
export function ownBodyRoutes(ctx: AppContext): Router {
  return mountRoutes(Router(), API_ROUTES.filter(readsOwnBody), ctx, API_ROUTES);
}

/** Every other API area, mounted under /api after the body parsers and the session. */
export function apiRoutes(ctx: AppContext): Router {
  return mountRoutes(
    Router(),
    API_ROUTES.filter((route) => !readsOwnBody(route)),
    ctx,
    API_ROUTES,
  );
}
