/**
 * Typed fetchers of the administrator calls of SPEC §7, on the app's one fetch wrapper. Each call
 * is typed by its route's schemas (api/src/routes, shared/src/schemas): what it answers is the
 * response schema's output, what it sends the body or query schema's input. Types only: no zod at run time.
 */
import type { z } from "zod";
import type {
  adminAccountResponseSchema,
  adminLoginRequestSchema,
  adminLoginResponseSchema,
  adminSessionResponseSchema,
  adminsResponseSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  analyticsQuerySchema,
  analyticsResponseSchema,
  assignPackageRequestSchema,
  assignPackageResponseSchema,
  auditLogQuerySchema,
  auditLogResponseSchema,
  createAdminRequestSchema,
  createPackageRequestSchema,
  createRedemptionBatchRequestSchema,
  createRedemptionBatchResponseSchema,
  dashboardResponseSchema,
  idQuerySchema,
  messageResponseSchema,
  pageInfoSchema,
  queueJobActionRequestSchema,
  queuesResponseSchema,
  redemptionBatchesQuerySchema,
  redemptionBatchesResponseSchema,
  smsGatewayConfigDeleteSchema,
  smsGatewayConfigResponseSchema,
  smsGatewayConfigSaveSchema,
  smsGatewayConfigsResponseSchema,
  smsGatewayConfigUpdateSchema,
  smsGatewayTestResponseSchema,
  SmsGatewayView,
  smsIntegrationActionSchema,
  smsIntegrationConfigRequestSchema,
  smsIntegrationConfigResponseSchema,
  SmsIntegrationConfigView,
  smsLogsQuerySchema,
  smsLogsResponseSchema,
  successSchema,
  toggleUserRequestSchema,
  toggleUserResponseSchema,
  updateAdminRequestSchema,
  updatePackageRequestSchema,
  updateRedemptionBatchRequestSchema,
  updateRedemptionBatchResponseSchema,
  updateUserTierRequestSchema,
  updateUserTierResponseSchema,
  userPackagesQuerySchema,
  userPackagesResponseSchema,
  walletConfigRequestSchema,
  walletConfigResponseSchema,
  walletConfigSaveResponseSchema,
  walletPackageSaveResponseSchema,
  walletPackagesResponseSchema,
} from "@storefront/shared";
import { get, post, request } from "../../api/client";

/** What a call answers: its route's response schema, as parsed. */
type Res<S extends z.ZodType> = z.output<S>;
/** What a call sends: its route's body schema, before the server parses it. */
type Req<S extends z.ZodType> = z.input<S>;
/**
 * What a call sends in its query string: its route's query schema, before the server parses it,
 * one value a name (the client repeats no parameter, so a schema's list form is left out).
 */
type QueryOf<S extends z.ZodType> = { [K in keyof Req<S>]: Exclude<Req<S>[K], readonly unknown[]> };

/** The page figures of an admin list (shared pageInfoSchema). */
export type Paged = Res<typeof pageInfoSchema>;

/** The test_gateway action's fields; the rotate action's answer is the other half of the union. */
type GatewayTest = Extract<Req<typeof smsIntegrationActionSchema>, { action: "test_gateway" }>;
type SmsActionResponse = Res<typeof smsGatewayTestResponseSchema>;

export const adminApi = {
  login: (username: string, password: string) =>
    post<Res<typeof adminLoginResponseSchema>>("admin/login.php", {
      username,
      password,
    } satisfies Req<typeof adminLoginRequestSchema>),
  logout: () => post<Res<typeof successSchema>>("admin/logout.php"),
  session: () => get<Res<typeof adminSessionResponseSchema>>("admin/session.php"),

  dashboard: () => get<Res<typeof dashboardResponseSchema>>("admin/dashboard-data.php"),

  users: (query: QueryOf<typeof adminUsersQuerySchema>) => get<Res<typeof adminUsersResponseSchema>>("admin/users.php", query),
  setActive: (userId: string, isActive: boolean) =>
    request<Res<typeof toggleUserResponseSchema>>("admin/users.php", {
      method: "PUT",
      body: { userId, isActive } satisfies Req<typeof toggleUserRequestSchema>,
    }),
  updateTier: (userId: string, newCoins: number, newTier: number) =>
    post<Res<typeof updateUserTierResponseSchema>>("admin/update-user-tier.php", {
      userId,
      newCoins,
      newTier,
    } satisfies Req<typeof updateUserTierRequestSchema>),

  packages: () => get<Res<typeof walletPackagesResponseSchema>>("admin/wallet-packages-simple.php"),
  savePackage: (body: Req<typeof createPackageRequestSchema> | Req<typeof updatePackageRequestSchema>) =>
    request<Res<typeof walletPackageSaveResponseSchema>>("admin/wallet-packages-simple.php", {
      method: body.id ? "PUT" : "POST",
      body,
    }),
  deletePackage: (id: string) =>
    request<Res<typeof messageResponseSchema>>("admin/wallet-packages-simple.php", {
      method: "DELETE",
      query: { id } satisfies QueryOf<typeof idQuerySchema>,
    }),

  userPackages: (userId: string) =>
    get<Res<typeof userPackagesResponseSchema>>("admin/user-packages.php", {
      userId,
    } satisfies QueryOf<typeof userPackagesQuerySchema>),
  assign: (body: Req<typeof assignPackageRequestSchema>) =>
    post<Res<typeof assignPackageResponseSchema>>("admin/user-packages.php", body),
  removeAssignment: (id: string) =>
    request<Res<typeof successSchema>>("admin/user-packages.php", {
      method: "DELETE",
      query: { id } satisfies QueryOf<typeof idQuerySchema>,
    }),

  walletConfig: () => get<Res<typeof walletConfigResponseSchema>>("admin/wallet-config.php"),
  saveWalletConfig: (body: Req<typeof walletConfigRequestSchema>) =>
    request<Res<typeof walletConfigSaveResponseSchema>>("admin/wallet-config.php", { method: "PUT", body }),

  redemptionBatches: (batchId?: string) =>
    get<Res<typeof redemptionBatchesResponseSchema>>(
      "admin/redemption-codes.php",
      batchId ? ({ batchId } satisfies QueryOf<typeof redemptionBatchesQuerySchema>) : undefined,
    ),
  createRedemptionBatch: (body: Req<typeof createRedemptionBatchRequestSchema>) =>
    post<Res<typeof createRedemptionBatchResponseSchema>>("admin/redemption-codes.php", body),
  setRedemptionBatch: (id: string, enabled: boolean) =>
    request<Res<typeof updateRedemptionBatchResponseSchema>>("admin/redemption-codes.php", {
      method: "PUT",
      body: { id, enabled } satisfies Req<typeof updateRedemptionBatchRequestSchema>,
    }),

  analytics: (from: string, to: string) =>
    get<Res<typeof analyticsResponseSchema>>("admin/analytics.php", { from, to } satisfies QueryOf<typeof analyticsQuerySchema>),

  queues: () => get<Res<typeof queuesResponseSchema>>("admin/queues.php"),
  jobAction: (queue: string, jobId: string, action: "retry" | "remove") =>
    post<Res<typeof successSchema>>("admin/queues.php", { queue, jobId, action } satisfies Req<
      typeof queueJobActionRequestSchema
    >),

  admins: () => get<Res<typeof adminsResponseSchema>>("admin/admins.php"),
  createAdmin: (body: Req<typeof createAdminRequestSchema>) =>
    post<Res<typeof adminAccountResponseSchema>>("admin/admins.php", body),
  updateAdmin: (body: Req<typeof updateAdminRequestSchema>) =>
    request<Res<typeof adminAccountResponseSchema>>("admin/admins.php", { method: "PUT", body }),

  audit: (query: QueryOf<typeof auditLogQuerySchema>) => get<Res<typeof auditLogResponseSchema>>("admin/audit-log.php", query),

  smsConfigs: () => get<Res<typeof smsGatewayConfigsResponseSchema>>("admin/sms-config.php"),
  saveSmsConfig: (body: Req<typeof smsGatewayConfigSaveSchema> | Req<typeof smsGatewayConfigUpdateSchema>) =>
    request<Res<typeof smsGatewayConfigResponseSchema>>("admin/sms-config.php", { method: body.id ? "PUT" : "POST", body }),
  deleteSmsConfig: (id: string) =>
    request<Res<typeof successSchema>>("admin/sms-config.php", {
      method: "DELETE",
      query: { id } satisfies QueryOf<typeof smsGatewayConfigDeleteSchema>,
    }),

  smsIntegration: () => get<Res<typeof smsIntegrationConfigResponseSchema>>("sms/integration/config.php"),
  saveSmsIntegration: (config: Req<typeof smsIntegrationConfigRequestSchema>) =>
    post<Res<typeof smsIntegrationConfigResponseSchema>>("sms/integration/config.php", config),
  /** Tests the form's URL and credentials (the password only when typed: a changed URL needs it). */
  testSmsGateway: (gateway: Omit<GatewayTest, "action">) =>
    request<Extract<SmsActionResponse, { test_result: unknown }>>("sms/integration/config.php", {
      method: "PUT",
      body: {
        action: "test_gateway",
        ...gateway,
        ...(gateway.gateway_password ? {} : { gateway_password: undefined }),
      } satisfies GatewayTest,
    }),
  /** A new webhook secret, answered this once. */
  rotateWebhookSecret: () =>
    request<Extract<SmsActionResponse, { webhook_secret: string }>>("sms/integration/config.php", {
      method: "PUT",
      body: { action: "rotate_webhook_secret" } satisfies Req<typeof smsIntegrationActionSchema>,
    }),
  /** One of the three views; `action` in the answer says which `data` holds. */
  smsLogs: (query: QueryOf<typeof smsLogsQuerySchema>) =>
    get<Res<typeof smsLogsResponseSchema>>("sms/integration/logs.php", query),
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
