/** Requests and responses of the administrator calls of SPEC §7 (users, packages, assignments, wallet config, audit, queues). */
import { z } from "zod";
import { ADMIN_PASSWORD_MIN, ADMIN_ROLES, FEATURES, PACKAGE_MAX, SUBSCRIPTION_TYPES } from "../constants";
import { MESSAGES } from "../messages";
import { tierTableProblems } from "../pricing";
import { PRICE_MINOR_UNITS, priceInMinorUnits } from "../value-paths";
import { booleanishSchema, decimalSchema, intSchema, objectIdSchema, pageInfoSchema } from "./common";

const MAX_COINS = 2_000_000_000;

/** Page and page size of admin lists (page 1-based). */
export const adminPageQuerySchema = z.object({
  page: intSchema.pipe(z.number().min(1, "page must be at least 1")).default(1),
  limit: intSchema
    .pipe(z.number().min(1, "limit must be between 1 and 200").max(200, "limit must be between 1 and 200"))
    .default(50),
});

export const adminUsersQuerySchema = adminPageQuerySchema.extend({
  /** Part of a phone number to look for. */
  search: z.string().trim().max(20).optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

export const toggleUserRequestSchema = z.object({
  userId: objectIdSchema,
  isActive: booleanishSchema,
});
export type ToggleUserRequest = z.infer<typeof toggleUserRequestSchema>;

export const usageStatSchema = z.object({ feature_type: z.string(), total_tokens: z.number().int() });

export const adminUserRowSchema = z.object({
  id: z.string(),
  phone: z.string(),
  coins: z.number().int(),
  /** The tier the user sees (shownTier): their balance's tier, at least tier_floor. */
  tier: z.number().int(),
  /** The floor an administrator set (admin/update-user-tier.php newTier). */
  tier_floor: z.number().int(),
  is_active: z.boolean(),
  created_at: z.string(),
  usage_stats: z.array(usageStatSchema),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUsersResponseSchema = z.object({
  success: z.literal(true),
  users: z.array(adminUserRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  total_pages: z.number().int(),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const dashboardStatsSchema = z.object({
  total_users: z.number().int(),
  active_users: z.number().int(),
  total_tokens_spent: z.number().int(),
  total_sms: z.number().int(),
  total_images: z.number().int(),
  total_conversations: z.number().int(),
  /** Last 30 days. */
  usage_by_feature: z.array(z.object({ feature_type: z.string(), count: z.number().int(), total_tokens: z.number().int() })),
  top_users: z.array(
    z.object({
      id: z.string(),
      phone: z.string(),
      coins: z.number().int(),
      total_spent: z.number().int(),
      tier: z.number().int(),
    }),
  ),
  /** Coins spent per UTC day over the last 30 days, oldest first, days without use included. */
  daily: z.array(z.object({ date: z.string(), coins_spent: z.number().int(), count: z.number().int() })),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;
export const dashboardResponseSchema = z.object({ success: z.literal(true), stats: dashboardStatsSchema });
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;

const packageName = z
  .string({ error: "name is required" })
  .trim()
  .min(1, "name is required")
  .max(100, "name must be at most 100 characters");

/** Fields of a wallet package as the package form sends them (SPEC §5 defaults). */
export const walletPackageFieldsSchema = z.object({
  name: packageName,
  coins: z
    .union([z.literal("").transform(() => 0), intSchema])
    .pipe(z.number().min(0, "coins must be at least 0").max(PACKAGE_MAX.coins, `coins must be at most ${PACKAGE_MAX.coins}`))
    .default(0),
  /** Whole minor units of the currency, never rounded: a price under one unit is not 0 (docs/security.md). */
  price: z
    .union([z.literal("").transform(() => 0), decimalSchema])
    .pipe(
      z
        .number()
        .min(0, "price must be at least 0")
        .max(PACKAGE_MAX.price, `price must be at most ${PACKAGE_MAX.price}`)
        .refine((v) => v === 0 || v >= 1 / PRICE_MINOR_UNITS, `price must be 0 or at least ${1 / PRICE_MINOR_UNITS}`)
        .refine((v) => priceInMinorUnits(v) !== null, `price must be in steps of ${1 / PRICE_MINOR_UNITS}`),
    )
    .transform((v) => priceInMinorUnits(v)! / PRICE_MINOR_UNITS)
    .default(0),
  subscription_type: z.enum(SUBSCRIPTION_TYPES, { error: "subscription_type must be daily, weekly or monthly" }).default("daily"),
  /** Off unless asked for: a renewal charges the subscriber again (the form sends SPEC's default, on). */
  auto_renew: booleanishSchema.default(false),
  description: z.string().trim().max(500, "description must be at most 500 characters").default(""),
  status: z.enum(["active", "inactive"], { error: "status must be active or inactive" }).default("active"),
});
export type WalletPackageFields = z.infer<typeof walletPackageFieldsSchema>;

export const createPackageRequestSchema = walletPackageFieldsSchema.extend({
  /** Ignored on create: the form sends the id it edits, if any. */
  id: z.unknown().optional(),
});
export const updatePackageRequestSchema = walletPackageFieldsSchema.extend({ id: objectIdSchema });
export type UpdatePackageRequest = z.infer<typeof updatePackageRequestSchema>;

export const idQuerySchema = z.object({ id: objectIdSchema });

export const walletPackageSchema = z.object({
  id: z.string(),
  name: z.string(),
  coins: z.number().int(),
  price: z.number(),
  subscription_type: z.enum(SUBSCRIPTION_TYPES),
  auto_renew: z.boolean(),
  description: z.string(),
  status: z.enum(["active", "inactive"]),
  created_at: z.string(),
});
export type WalletPackage = z.infer<typeof walletPackageSchema>;

export const userPackagesQuerySchema = adminPageQuerySchema.extend({ userId: objectIdSchema.optional() });

export const assignPackageRequestSchema = z.object({
  userId: objectIdSchema,
  packageId: z
    .unknown()
    .transform((v) => (v === null || v === undefined ? "" : String(v).trim()))
    .pipe(
      z
        .string()
        .min(1, MESSAGES.packageRequired)
        .regex(/^[a-f0-9]{24}$/u, "packageId must be a package id"),
    ),
  /** End of the first period; when absent the package's own period (daily, weekly, monthly) from now. */
  expiresAt: z
    .union([z.null(), z.literal("").transform(() => null), z.iso.datetime({ local: true, offset: true })])
    .optional()
    .transform((v) => (v ? new Date(v) : null))
    .refine((d) => d === null || !Number.isNaN(d.getTime()), "expiresAt must be a date-time"),
  autoRenew: booleanishSchema.default(true),
});
export type AssignPackageRequest = z.infer<typeof assignPackageRequestSchema>;

export const packageAssignmentSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  package_id: z.string(),
  package_name: z.string(),
  coins: z.number().int(),
  price: z.number(),
  subscription_type: z.enum(SUBSCRIPTION_TYPES),
  is_active: z.boolean(),
  auto_renew: z.boolean(),
  expires_at: z.string().nullable(),
  assigned_at: z.string(),
  renewals: z.number().int(),
  ended_reason: z.string().nullable(),
});
export type PackageAssignment = z.infer<typeof packageAssignmentSchema>;

const positiveInt = (field: string) => intSchema.pipe(z.number().min(1, `${field} must be at least 1`).max(MAX_COINS));
const coinBound = (field: string) => intSchema.pipe(z.number().min(0, `${field} must be at least 0`).max(MAX_COINS));

export const pricingRowSchema = z.object({
  feature_type: z.enum(FEATURES, { error: `feature_type must be one of ${FEATURES.join(", ")}` }),
  tokens_per_unit: positiveInt("tokens_per_unit"),
});

export const tierRowSchema = z.object({
  tier_number: intSchema.pipe(
    z.number().min(1, "tier_number must be between 1 and 10").max(10, "tier_number must be between 1 and 10"),
  ),
  tier_name: z.string({ error: "tier_name is required" }).trim().min(1, "tier_name is required").max(50),
  min_coins: coinBound("min_coins"),
  max_coins: coinBound("max_coins"),
  text_tokens: positiveInt("text_tokens"),
  image_tokens: positiveInt("image_tokens"),
  video_tokens: positiveInt("video_tokens"),
  audio_tokens: positiveInt("audio_tokens"),
  sms_tokens: positiveInt("sms_tokens"),
  daily_cap: positiveInt("daily_cap").nullable().optional(),
});

export const walletConfigRequestSchema = z
  .object({
    pricing: z.array(pricingRowSchema, { error: "pricing must be a list" }).min(1, "pricing must have at least one row"),
    tiers: z
      .array(tierRowSchema, { error: "tiers must be a list" })
      .min(1, "tiers must have 1 to 10 rows")
      .max(10, "tiers must have 1 to 10 rows"),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.pricing.forEach((row, i) => {
      if (seen.has(row.feature_type)) {
        ctx.addIssue({
          code: "custom",
          path: ["pricing", i, "feature_type"],
          message: `pricing: ${row.feature_type} appears twice`,
        });
      }
      seen.add(row.feature_type);
    });
    for (const problem of tierTableProblems(value.tiers)) ctx.addIssue({ code: "custom", path: ["tiers"], message: problem });
  });
export type WalletConfigRequest = z.infer<typeof walletConfigRequestSchema>;

export const auditLogQuerySchema = adminPageQuerySchema.extend({
  action: z.string().trim().max(60).optional(),
  adminId: objectIdSchema.optional(),
});

export const auditEntrySchema = z.object({
  id: z.string(),
  admin: z.object({ id: z.string(), username: z.string(), role: z.string() }),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const JOB_STATES = ["waiting", "active", "completed", "failed", "delayed"] as const;
export type JobState = (typeof JOB_STATES)[number];

export const queueStatSchema = z.object({
  name: z.string(),
  counts: z.record(z.enum(JOB_STATES), z.number().int()),
  /** Jobs finished (completed or failed) in the last minute. */
  jobs_per_minute: z.number().int(),
  /** Processing time of recent finished jobs, in milliseconds; null without any. */
  duration_p50_ms: z.number().nullable(),
  duration_p95_ms: z.number().nullable(),
  paused: z.boolean(),
});
export type QueueStat = z.infer<typeof queueStatSchema>;

export const failedJobSchema = z.object({
  queue: z.string(),
  id: z.string(),
  name: z.string(),
  /** The failure as the worker gave it, without the subscriber's texts or numbers. */
  error: z.string(),
  /** The failure code ([code] of the reason: ai_busy, ai_refused...), null when the job gave none. */
  code: z.string().nullable(),
  /** Size of the job's payload in bytes; the payload itself is never shown. */
  bytes: z.number().int(),
  attempts: z.number().int(),
  failed_at: z.string().nullable(),
});
export type FailedJob = z.infer<typeof failedJobSchema>;

export const queuesResponseSchema = z.object({
  success: z.literal(true),
  at: z.string(),
  queues: z.array(queueStatSchema),
  failed: z.array(failedJobSchema),
});
export type QueuesResponse = z.infer<typeof queuesResponseSchema>;

export const queueJobActionRequestSchema = z.object({
  queue: z.string({ error: "queue is required" }).trim().min(1, "queue is required").max(60),
  jobId: z
    .union([z.string(), z.number()], { error: "jobId is required" })
    .transform(String)
    .pipe(z.string().min(1, "jobId is required").max(200)),
  action: z.enum(["retry", "remove"], { error: "action must be retry or remove" }),
});
export type QueueJobActionRequest = z.infer<typeof queueJobActionRequestSchema>;

const adminUsername = z
  .string({ error: "username is required" })
  .trim()
  .min(3, "username must be at least 3 characters")
  .max(50, "username must be at most 50 characters")
  .regex(/^[A-Za-z0-9._-]+$/u, "username may only hold letters, digits, dot, dash and underscore");

/** Subscribers' password rule (length) with a higher floor; `adminPasswordProblem` adds the rest. */
export const adminPasswordSchema = z
  .string({ error: "password is required" })
  .min(ADMIN_PASSWORD_MIN, `password must be at least ${ADMIN_PASSWORD_MIN} characters`)
  .max(200, "password must be at most 200 characters");

/**
 * What is wrong with an administrator's password beyond its length, or null: it must not hold
 * the username and needs at least 5 different characters ("aaaaaaaaaaaa" is 12 long and worthless).
 */
export function adminPasswordProblem(password: string, username: string): string | null {
  const kind = adminPasswordWeakness(password, username);
  return kind && ADMIN_PASSWORD_PROBLEMS[kind];
}

/** The admin password rule each form checks before sending, as a stable kind the web translates. */
export type AdminPasswordWeakness = "containsUsername" | "fewDistinct";
export const ADMIN_PASSWORD_MIN_DISTINCT = 5;
const ADMIN_PASSWORD_PROBLEMS: Record<AdminPasswordWeakness, string> = {
  containsUsername: "password must not contain the username",
  fewDistinct: `password must have at least ${ADMIN_PASSWORD_MIN_DISTINCT} different characters`,
};

export function adminPasswordWeakness(password: string, username: string): AdminPasswordWeakness | null {
  if (username && password.toLowerCase().includes(username.toLowerCase())) return "containsUsername";
  if (new Set(password).size < ADMIN_PASSWORD_MIN_DISTINCT) return "fewDistinct";
  return null;
}

const adminRole = z.enum(ADMIN_ROLES, { error: `role must be one of ${ADMIN_ROLES.join(", ")}` });

export const createAdminRequestSchema = z
  .object({ username: adminUsername, password: adminPasswordSchema, role: adminRole })
  .superRefine((value, ctx) => {
    const problem = adminPasswordProblem(value.password, value.username);
    if (problem) ctx.addIssue({ code: "custom", path: ["password"], message: problem });
  });
export type CreateAdminRequest = z.infer<typeof createAdminRequestSchema>;

/** Changes one administrator; at least one of role, isActive, password. */
export const updateAdminRequestSchema = z
  .object({
    id: objectIdSchema,
    role: adminRole.optional(),
    isActive: booleanishSchema.optional(),
    password: adminPasswordSchema.optional(),
  })
  .refine((v) => v.role !== undefined || v.isActive !== undefined || v.password !== undefined, {
    message: "role, isActive or password is required",
    path: ["role"],
  });
export type UpdateAdminRequest = z.infer<typeof updateAdminRequestSchema>;

export const adminAccountSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(ADMIN_ROLES),
  is_active: z.boolean(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
});
export type AdminAccount = z.infer<typeof adminAccountSchema>;

export const adminsResponseSchema = z.object({ success: z.literal(true), admins: z.array(adminAccountSchema) });
export type AdminsResponse = z.infer<typeof adminsResponseSchema>;
export const adminAccountResponseSchema = z.object({ success: z.literal(true), admin: adminAccountSchema });
export const toggleUserResponseSchema = z.object({ success: z.literal(true), userId: z.string(), isActive: z.boolean() });

export const walletPackagesResponseSchema = z.object({ success: z.literal(true), packages: z.array(walletPackageSchema) });
export type WalletPackagesResponse = z.infer<typeof walletPackagesResponseSchema>;

/** Create or update of a package: the stored package and the confirmation text. */
export const walletPackageSaveResponseSchema = z.object({
  success: z.literal(true),
  package: walletPackageSchema,
  message: z.string(),
});

/** With ?userId= the user's packages, otherwise every assignment. */
export const userPackagesResponseSchema = pageInfoSchema.extend({
  success: z.literal(true),
  packages: z.array(packageAssignmentSchema).optional(),
  assignments: z.array(packageAssignmentSchema).optional(),
});
export type UserPackagesResponse = z.infer<typeof userPackagesResponseSchema>;

export const assignPackageResponseSchema = z.object({
  success: z.literal(true),
  coinsAdded: z.number().int(),
  assignment: packageAssignmentSchema,
});
export type AssignPackageResponse = z.infer<typeof assignPackageResponseSchema>;

export const walletConfigResponseSchema = z.object({
  success: z.literal(true),
  pricing: z.array(pricingRowSchema),
  tiers: z.array(tierRowSchema),
});
export type WalletConfigResponse = z.infer<typeof walletConfigResponseSchema>;
export const walletConfigSaveResponseSchema = walletConfigResponseSchema.extend({ message: z.string() });

export const updateUserTierResponseSchema = z.object({
  success: z.literal(true),
  newTier: z.number().int(),
  newCoins: z.number().int(),
});
export type UpdateUserTierResponse = z.infer<typeof updateUserTierResponseSchema>;

export const auditLogResponseSchema = pageInfoSchema.extend({ success: z.literal(true), logs: z.array(auditEntrySchema) });
export type AuditLogResponse = z.infer<typeof auditLogResponseSchema>;

const analyticsDay = (field: string) =>
  z
    .string({ error: `${field} must be a date (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/u, `${field} must be a date (YYYY-MM-DD)`)
    .refine((v) => !Number.isNaN(new Date(`${v}T00:00:00Z`).getTime()), `${field} must be a real date`);

/** Analytics over whole UTC days, `from` to `to` inclusive, at most 366 days; the last 30 days by default. */
export const analyticsQuerySchema = z
  .object({
    from: analyticsDay("from").optional(),
    to: analyticsDay("to").optional(),
    format: z.enum(["json", "csv"], { error: "format must be json or csv" }).default("json"),
  })
  .transform((q) => {
    const to = q.to ?? new Date().toISOString().slice(0, 10);
    const from = q.from ?? new Date(new Date(`${to}T00:00:00Z`).getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
    return { ...q, from, to };
  })
  .refine((q) => q.from <= q.to, { message: "from must not be after to", path: ["from"] })
  .refine((q) => new Date(`${q.to}T00:00:00Z`).getTime() - new Date(`${q.from}T00:00:00Z`).getTime() <= 365 * 86_400_000, {
    message: "to: the range is at most 366 days",
    path: ["to"],
  });
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

export const analyticsDaySchema = z.object({
  date: z.string(),
  /** Coins spent per feature that day (charges that were kept: settled holds and direct debits). */
  coins_spent: z.record(z.string(), z.number().int()),
  active_users: z.number().int(),
  new_signups: z.number().int(),
  packages_sold: z.number().int(),
  package_revenue: z.number(),
  redemptions: z.number().int(),
  coins_redeemed: z.number().int(),
  /** Charged jobs per queue that ended that day: completed (settled) and failed (refunded). */
  jobs: z.record(z.string(), z.object({ completed: z.number().int(), failed: z.number().int() })),
});
export type AnalyticsDay = z.infer<typeof analyticsDaySchema>;

export const analyticsResponseSchema = z.object({
  success: z.literal(true),
  from: z.string(),
  to: z.string(),
  days: z.array(analyticsDaySchema),
});
export type AnalyticsResponse = z.infer<typeof analyticsResponseSchema>;
