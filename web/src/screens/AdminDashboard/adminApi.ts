/** Typed fetchers of the administrator calls of SPEC §7, on the app's one fetch wrapper. */
import type {
  AdminAccount,
  AdminRecord,
  AdminRole,
  AdminUsersResponse,
  AnalyticsResponse,
  AuditEntry,
  CreateRedemptionBatchResponse,
  DashboardStats,
  PackageAssignment,
  PricingRow,
  QueuesResponse,
  RedemptionBatchView,
  SmsGatewayView,
  SmsIntegrationConfigView,
  TierRow,
  WalletPackage,
} from "@storefront/shared";
import { get, post, request, type Query } from "../../api/client";

export interface Paged {
  total: number;
  page: number;
  total_pages: number;
}

export const adminApi = {
  login: (username: string, password: string) =>
    post<{ success: true; admin: AdminRecord }>("admin/login.php", { username, password }),
  logout: () => post<{ success: true }>("admin/logout.php"),
  session: () => get<{ success: true; admin: AdminRecord }>("admin/session.php"),

  dashboard: () => get<{ success: true; stats: DashboardStats }>("admin/dashboard-data.php"),

  users: (query: Query) => get<AdminUsersResponse>("admin/users.php", query),
  setActive: (userId: string, isActive: boolean) => request("admin/users.php", { method: "PUT", body: { userId, isActive } }),
  updateTier: (userId: string, newCoins: number, newTier: number) =>
    post<{ success: true; newTier: number; newCoins: number }>("admin/update-user-tier.php", { userId, newCoins, newTier }),

  packages: () => get<{ success: true; packages: WalletPackage[] }>("admin/wallet-packages-simple.php"),
  savePackage: (body: PackageForm & { id?: string }) =>
    request<{ success: true; package: WalletPackage }>("admin/wallet-packages-simple.php", {
      method: body.id ? "PUT" : "POST",
      body,
    }),
  deletePackage: (id: string) => request("admin/wallet-packages-simple.php", { method: "DELETE", query: { id } }),

  userPackages: (userId: string) => get<{ success: true; packages: PackageAssignment[] }>("admin/user-packages.php", { userId }),
  assign: (body: { userId: string; packageId: string; expiresAt: string | null; autoRenew: boolean }) =>
    post<{ success: true; coinsAdded: number }>("admin/user-packages.php", body),
  removeAssignment: (id: string) => request("admin/user-packages.php", { method: "DELETE", query: { id } }),

  walletConfig: () => get<{ success: true; pricing: PricingRow[]; tiers: TierRow[] }>("admin/wallet-config.php"),
  saveWalletConfig: (pricing: unknown[], tiers: unknown[]) =>
    request("admin/wallet-config.php", { method: "PUT", body: { pricing, tiers } }),

  redemptionBatches: (batchId?: string) =>
    get<{
      success: true;
      batches: RedemptionBatchView[];
      redemptions?: { user_id: string; phone: string | null; coins: number; at: string }[];
    }>("admin/redemption-codes.php", batchId ? { batchId } : undefined),
  createRedemptionBatch: (body: { label: string; count: number; coins: number; usesPerCode: number; expiresAt: string }) =>
    post<CreateRedemptionBatchResponse>("admin/redemption-codes.php", body),
  setRedemptionBatch: (id: string, enabled: boolean) =>
    request<{ success: true; batch: RedemptionBatchView }>("admin/redemption-codes.php", {
      method: "PUT",
      body: { id, enabled },
    }),

  analytics: (from: string, to: string) => get<AnalyticsResponse>("admin/analytics.php", { from, to }),

  queues: () => get<QueuesResponse>("admin/queues.php"),
  jobAction: (queue: string, jobId: string, action: "retry" | "remove") => post("admin/queues.php", { queue, jobId, action }),

  admins: () => get<{ success: true; admins: AdminAccount[] }>("admin/admins.php"),
  createAdmin: (body: { username: string; role: AdminRole; password: string }) =>
    post<{ success: true; admin: AdminAccount }>("admin/admins.php", body),
  updateAdmin: (body: { id: string; role?: AdminRole; isActive?: boolean; password?: string }) =>
    request<{ success: true; admin: AdminAccount }>("admin/admins.php", { method: "PUT", body }),

  audit: (query: Query) => get<{ success: true; logs: AuditEntry[] } & Paged>("admin/audit-log.php", query),

  smsConfigs: () => get<{ success: true; configs: SmsGateway[] }>("admin/sms-config.php"),
  saveSmsConfig: (body: SmsGatewayForm & { id?: string }) =>
    request("admin/sms-config.php", { method: body.id ? "PUT" : "POST", body }),
  deleteSmsConfig: (id: string) => request("admin/sms-config.php", { method: "DELETE", query: { id } }),

  smsIntegration: () => get<{ success: true; config: SmsIntegrationConfig }>("sms/integration/config.php"),
  saveSmsIntegration: (config: SmsIntegrationForm) =>
    post<{ success: true; config: SmsIntegrationConfig }>("sms/integration/config.php", config),
  /** Tests the form's URL and credentials (the password only when typed: a changed URL needs it). */
  testSmsGateway: (
    gateway: Pick<SmsIntegrationForm, "gateway_url" | "gateway_format" | "gateway_username" | "gateway_password">,
  ) =>
    request<{ success: boolean; test_result?: { success: boolean; error?: string }; error?: string }>(
      "sms/integration/config.php",
      {
        method: "PUT",
        body: { action: "test_gateway", ...gateway, ...(gateway.gateway_password ? {} : { gateway_password: undefined }) },
      },
    ),
  /** A new webhook secret, answered this once. */
  rotateWebhookSecret: () =>
    request<{ success: true; webhook_secret: string; config: SmsIntegrationConfig }>("sms/integration/config.php", {
      method: "PUT",
      body: { action: "rotate_webhook_secret" },
    }),
  smsLogs: <T>(query: Query) => get<{ success: true; data: T }>("sms/integration/logs.php", query),
};

/** The package form's values as the inputs hold them; the server parses and validates. */
export interface PackageForm {
  name: string;
  coins: string | number;
  price: string | number;
  subscription_type: "daily" | "weekly" | "monthly";
  auto_renew: boolean;
  description: string;
  status: "active" | "inactive";
}

/** A gateway of the SMS Config list: passwords never come back, only whether one is stored. */
export type SmsGateway = SmsGatewayView;
/** The password is write-only: empty on an edit keeps the stored one (unless the API URL changes). */
export type SmsGatewayForm = Omit<SmsGateway, "id" | "port" | "password_set"> & { port: string | number; password: string };

/** GET config.php: the settings with every secret replaced by whether it is set. */
export type SmsIntegrationConfig = SmsIntegrationConfigView;

/**
 * The configuration as the form edits and saves it: the rate limit and allowlist are typed text
 * until saved; the password and secret are write-only (empty keeps the stored one).
 */
export type SmsIntegrationForm = Omit<
  SmsIntegrationConfigView,
  | "rate_limit_per_minute"
  | "webhook_allowed_ips"
  | "webhook_url"
  | "gateway_password_set"
  | "webhook_secret_set"
  | "webhook_secret_previous_until"
> & {
  rate_limit_per_minute: number | string;
  webhook_allowed_ips: string;
  gateway_password: string;
  webhook_secret: string;
};

/** The SMS logs view's rows and stats, as the shared response schema (smsLogsResponseSchema) has them. */
export type { SmsLogRow, SmsMessageRow, SmsStats } from "@storefront/shared";
