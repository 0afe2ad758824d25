/** Requests of the SMS integration (SPEC §7: sms/integration/*, admin/sms-config.php) and the sms-reply job. */
import { z } from "zod";
import { LANGUAGES, LIMITS, SMS_DIRECTIONS, SMS_LOG_ACTIONS } from "../constants";
import { parseCidr } from "../ip-address";
import { booleanishSchema, intSchema, objectIdSchema, pageInfoSchema } from "./common";

/** What GET config.php shows instead of a stored password. */
export const MASKED_SECRET = "********";

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => {
    try {
      const url = new URL(v);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http(s) URL");

/**
 * The HTTP gateway's interface for outbound messages: our own JSON, Kannel's `sendsms`, or
 * Jasmin's HTTP API `/send` (docs/operations.md "Outbound HTTP formats").
 */
export const SMS_GATEWAY_FORMATS = ["json", "kannel", "jasmin"] as const;
export type SmsGatewayFormat = (typeof SMS_GATEWAY_FORMATS)[number];

/** Where Kannel and Jasmin send the delivery receipts of messages sent through their HTTP interface (under /api). */
export const SMS_RECEIPT_PATH = "/sms/integration/receipt.php";

/** How the webhook tells the gateway from anyone else (docs/operations.md "SMS webhook"). */
export const SMS_WEBHOOK_AUTH_MODES = ["hmac", "basic", "header"] as const;
export type SmsWebhookAuth = (typeof SMS_WEBHOOK_AUTH_MODES)[number];

/** Source addresses: an array, or one text of entries separated by commas, spaces or lines. */
export const ipAllowlistSchema = z
  .union([z.array(z.string()), z.string()], { error: "webhook_allowed_ips must be a list of addresses" })
  .transform((v) => (Array.isArray(v) ? v : v.split(/[\s,]+/u)).map((x) => x.trim()).filter(Boolean))
  .pipe(
    z
      .array(
        z.string().refine((v) => parseCidr(v) !== null, {
          error: (issue) => `webhook_allowed_ips: ${String(issue.input)} is not an IP address or CIDR range`,
        }),
      )
      .max(50, "webhook_allowed_ips: at most 50 entries"),
  );

/**
 * POST sms/integration/config.php: the configuration form (SPEC §3). Secrets are write-only:
 * empty (or the mask) keeps the stored one. The webhook fields are optional so a client that
 * does not know them keeps the stored choice.
 */
export const smsIntegrationConfigRequestSchema = z.object({
  enabled: booleanishSchema,
  gateway_url: z.union([z.literal(""), httpUrl]).default(""),
  gateway_username: z.string().trim().max(200).default(""),
  /** Empty or the mask keeps the stored password. */
  gateway_password: z.string().max(500).default(""),
  sender_id: z.string().trim().max(20, "sender_id must be at most 20 characters").default(""),
  /** Omitted keeps the stored format. */
  gateway_format: z.enum(SMS_GATEWAY_FORMATS, { error: "gateway_format must be json, kannel or jasmin" }).optional(),
  /** Empty keeps the stored secret; a new one replaces it (the old one stays valid for the overlap). */
  webhook_secret: z
    .string()
    .trim()
    .max(200)
    .refine((v) => v === "" || v.length >= 16, "webhook_secret must be at least 16 characters")
    .default(""),
  rate_limit_per_minute: intSchema.pipe(
    z
      .number()
      .min(1, "rate_limit_per_minute must be between 1 and 100")
      .max(100, "rate_limit_per_minute must be between 1 and 100"),
  ),
  auto_reply_enabled: booleanishSchema,
  welcome_message: z.string().trim().min(1, "welcome_message is required").max(LIMITS.smsCharsEnglish),
  insufficient_funds_message: z.string().trim().min(1, "insufficient_funds_message is required").max(LIMITS.smsCharsEnglish),
  webhook_auth: z.enum(SMS_WEBHOOK_AUTH_MODES, { error: "webhook_auth must be hmac, basic or header" }).optional(),
  /** The user name of HTTP Basic authentication (the password is the webhook secret). */
  webhook_username: z
    .string()
    .trim()
    .max(100)
    .regex(/^[^:]*$/u, "webhook_username must not contain ':'")
    .optional(),
  webhook_allowed_ips: ipAllowlistSchema.optional(),
  /** Accept `?token=<secret>`: only for gateways that can do nothing else (the URL ends up in their logs). */
  webhook_query_token: booleanishSchema.optional(),
});
export type SmsIntegrationConfigRequest = z.infer<typeof smsIntegrationConfigRequestSchema>;

/** The stored configuration, as the worker and the API read it. */
export interface SmsIntegrationConfigValues {
  enabled: boolean;
  gateway_url: string;
  gateway_username: string;
  gateway_password: string;
  sender_id: string;
  gateway_format: SmsGatewayFormat;
  webhook_secret: string;
  /** The secret before the last rotation, accepted until webhook_secret_previous_until. */
  webhook_secret_previous: string;
  /** Epoch ms; null when no previous secret is accepted. */
  webhook_secret_previous_until: number | null;
  webhook_auth: SmsWebhookAuth;
  webhook_username: string;
  webhook_allowed_ips: string[];
  webhook_query_token: boolean;
  rate_limit_per_minute: number;
  auto_reply_enabled: boolean;
  welcome_message: string;
  insufficient_funds_message: string;
}

/** What GET/POST config.php answer: every secret replaced by whether one is set. */
export type SmsIntegrationConfigView = Omit<
  SmsIntegrationConfigValues,
  "gateway_password" | "webhook_secret" | "webhook_secret_previous" | "webhook_secret_previous_until"
> & {
  gateway_password_set: boolean;
  webhook_secret_set: boolean;
  /** ISO time until which the previous secret is still accepted, or null. */
  webhook_secret_previous_until: string | null;
  /** Where the gateway must post inbound messages (read-only on the screen). */
  webhook_url: string;
};

/**
 * PUT sms/integration/config.php. test_gateway tests the stored settings, or the form's unsaved
 * URL and credentials when given (a changed URL needs the password typed again).
 * rotate_webhook_secret generates a new secret, answered once.
 */
export const smsIntegrationActionSchema = z.discriminatedUnion(
  "action",
  [
    z.object({
      action: z.literal("test_gateway"),
      gateway_url: z.union([z.literal(""), httpUrl]).optional(),
      gateway_format: z.enum(SMS_GATEWAY_FORMATS, { error: "gateway_format must be json, kannel or jasmin" }).optional(),
      gateway_username: z.string().trim().max(200).optional(),
      gateway_password: z.string().max(500).optional(),
    }),
    z.object({
      action: z.literal("rotate_webhook_secret"),
      /** False ends the old secret at once (it leaked); true keeps it for the overlap. */
      keep_previous: booleanishSchema.default(true),
    }),
  ],
  { error: "action must be test_gateway or rotate_webhook_secret" },
);
export type SmsIntegrationAction = z.infer<typeof smsIntegrationActionSchema>;

/** How long the secret before a rotation keeps working, so messages in flight are not refused. */
export const WEBHOOK_SECRET_OVERLAP_MS = 60 * 60_000;

const dateParam = z
  .string()
  .trim()
  .refine((v) => !Number.isNaN(Date.parse(v)), "must be a date")
  .optional();

const VIEWS = ["logs", "stats", "messages"] as const;

/**
 * GET sms/integration/logs.php. SPEC §7 names both the view and the log-action filter
 * `action`: a view name picks the view, a log action filters the logs (repeat the parameter
 * for both, or use `log_action`).
 */
export const smsLogsQuerySchema = z
  .object({
    action: z.union([z.string(), z.array(z.string())]).optional(),
    page: intSchema.pipe(z.number().min(1, "page must be at least 1")).default(1),
    limit: intSchema
      .pipe(z.number().min(1, "limit must be between 1 and 100").max(100, "limit must be between 1 and 100"))
      .default(LIMITS.adminPageSize),
    log_action: z.union([z.literal(""), z.enum(SMS_LOG_ACTIONS)]).optional(),
    user_id: z.union([z.literal(""), objectIdSchema]).optional(),
    direction: z.union([z.literal(""), z.enum(["inbound", "outbound"])]).optional(),
    phone: z.string().trim().max(20).optional(),
    date_from: dateParam,
    date_to: dateParam,
  })
  .transform((v, ctx) => {
    const values = v.action === undefined ? [] : Array.isArray(v.action) ? v.action : [v.action];
    let view: (typeof VIEWS)[number] = "logs";
    let logAction = v.log_action || undefined;
    for (const value of values.map((x) => x.trim()).filter(Boolean)) {
      if ((VIEWS as readonly string[]).includes(value)) view = value as (typeof VIEWS)[number];
      else if ((SMS_LOG_ACTIONS as readonly string[]).includes(value)) logAction = value as (typeof SMS_LOG_ACTIONS)[number];
      else ctx.addIssue({ code: "custom", path: ["action"], message: "action must be logs, stats, messages or a log action" });
    }
    return {
      view,
      page: v.page,
      limit: v.limit,
      logAction,
      userId: v.user_id || undefined,
      direction: v.direction || undefined,
      phone: v.phone || undefined,
      dateFrom: v.date_from ? new Date(v.date_from) : undefined,
      dateTo: v.date_to ? endOfDayIfDateOnly(v.date_to) : undefined,
    };
  });

/** A bare date as date_to means "through the end of that day". */
function endOfDayIfDateOnly(value: string): Date {
  const date = new Date(value);
  if (/^\d{4}-\d{2}-\d{2}$/u.test(value)) date.setUTCHours(23, 59, 59, 999);
  return date;
}
export type SmsLogsQuery = z.infer<typeof smsLogsQuerySchema>;

export const SMS_TYPES = ["MT", "MO"] as const;

const requiredText = (field: string, max = 200) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max);

/** admin/sms-config.php: one SMPP gateway of the SMS Config list; every field required (SPEC §2). */
export const smsGatewayConfigSchema = z.object({
  gatewayName: requiredText("gatewayName", 100),
  shortcode: requiredText("shortcode", 20),
  port: intSchema.pipe(z.number().min(1, "port must be between 1 and 65535").max(65535, "port must be between 1 and 65535")),
  smsType: z.enum(SMS_TYPES, { error: "smsType must be MT or MO" }),
  apiUrl: requiredText("apiUrl", 2000).pipe(z.url({ error: "apiUrl must be a URL" })),
  username: requiredText("username", 100),
  password: requiredText("password", 200),
});
export type SmsGatewayConfigInput = z.infer<typeof smsGatewayConfigSchema>;

/** On update the password is write-only: omitted, empty or the mask keeps the stored one. */
const keptPassword = z.string().max(200).trim().optional();

export const smsGatewayConfigUpdateSchema = smsGatewayConfigSchema.extend({ id: objectIdSchema, password: keptPassword });
/** POST creates, or updates when the body carries an id (SPEC §7 allows either verb for saving). */
export const smsGatewayConfigSaveSchema = smsGatewayConfigSchema
  .extend({ id: objectIdSchema.optional(), password: keptPassword })
  .superRefine((v, ctx) => {
    if (!v.id && !v.password) ctx.addIssue({ code: "custom", path: ["password"], message: "password is required" });
  });
export const smsGatewayConfigDeleteSchema = z.object({ id: objectIdSchema });

/** An inbound SMS after the webhook's field names are unified. */
export const smsInboundSchema = z.object({
  from: z
    .string({ error: "from is required" })
    .trim()
    .transform((v) => v.replace(/[\s\-().]/gu, ""))
    .pipe(z.string().regex(/^\+?\d{3,20}$/u, "from must be a phone number")),
  to: z.string().trim().max(30).default(""),
  text: z.string({ error: "text is required" }).max(2000, "text is too long"),
  messageId: z.string().trim().max(200).optional(),
});
export type SmsInbound = z.infer<typeof smsInboundSchema>;

/** Payload of an sms-reply job: one inbound message. */
export const smsReplyJobSchema = z.object({
  messageId: z.string().min(1),
  /**
   * The message's key (smsMessageKey, shared/src/server/jobs.ts), computed where it came in; absent
   * from jobs queued before it existed, which the worker keys as they were (docs/operations.md).
   */
  key: z
    .string()
    .regex(/^[0-9a-f]{64}$/u)
    .optional(),
  from: z.string().min(1),
  to: z.string(),
  text: z.string(),
  /** Epoch ms at which the webhook accepted it (time-to-reply measurements). */
  receivedAt: z.number(),
  /** How it arrived. */
  channel: z.enum(["webhook", "smpp"]).default("webhook"),
});
export type SmsReplyJob = z.infer<typeof smsReplyJobSchema>;

/**
 * The low-balance SMS of a subscriber who opted in (low-balance.ts), on the "sms-reply" queue
 * beside the inbound messages: the same worker, gateways and outbound records send it.
 */
export const smsAlertJobSchema = z.object({
  type: z.literal("low_balance"),
  /** One per crossing: the key of its outbound record and log rows. */
  alertId: z.string().min(1).max(100),
  userId: objectIdSchema,
  /** The balance that crossed, and the threshold it crossed. */
  coins: z.number().int().min(0),
  threshold: z.number().int().min(1),
  language: z.enum(LANGUAGES),
});
export type SmsAlertJob = z.infer<typeof smsAlertJobSchema>;

/**
 * A phone code (api/src/services/phone-proof.ts) on its way to the number it proves: sent free
 * through the same gateways and outbound records as a reply, recorded with the code masked. The
 * code itself lives only in this job, which is removed once sent.
 */
export const smsCodeJobSchema = z.object({
  type: z.literal("phone_code"),
  /** One per code: the key of its outbound record and log rows. */
  codeId: z.string().min(1).max(100),
  phone: z.string().regex(/^\+\d{7,15}$/u),
  code: z.string().regex(/^\d{6}$/u),
  minutes: z.number().int().min(1),
  language: z.enum(LANGUAGES),
});
export type SmsCodeJob = z.infer<typeof smsCodeJobSchema>;

/** Everything the "sms-reply" queue carries: an inbound message, a low-balance SMS or a phone code. */
export const smsQueueJobSchema = z.union([smsAlertJobSchema, smsCodeJobSchema, smsReplyJobSchema]);
export type SmsQueueJob = z.infer<typeof smsQueueJobSchema>;

/** How an "sms-reply" job ended (the step logged as the message's outcome, SPEC §9 actions). */
export const SMS_REPLY_OUTCOMES = [
  "integration_disabled",
  "opted_out",
  "rate_limited",
  "user_inactive",
  "auto_reply_disabled",
  "replied",
  "delivery_failed",
  "already_processed",
  "failed",
  "alerts_off",
  "balance_restored",
  "phone_unproven",
] as const;
export type SmsReplyOutcome = (typeof SMS_REPLY_OUTCOMES)[number];
/** What an "sms-reply" job returns. */
export const smsReplyJobResultSchema = z.object({ outcome: z.enum(SMS_REPLY_OUTCOMES) });
export type SmsReplyJobResult = z.infer<typeof smsReplyJobResultSchema>;

/** What the HTTP gateway receives for one outbound SMS (POST JSON to gateway_url, HTTP Basic too). */
export interface HttpGatewayMessage {
  username: string;
  password: string;
  /** The sender id (also sent as `sender_id` for gateways that use that name). */
  from: string;
  sender_id: string;
  to: string;
  text: string;
  /** Our id of the message, stable across retries, so a gateway can drop duplicates. */
  reference: string;
  /** True for the Test Gateway action: nothing should be delivered. */
  test?: boolean;
}

/** Headers and JSON body of one POST to the HTTP gateway (API test and worker sends share it). */
export function httpGatewayRequest(
  config: Pick<SmsIntegrationConfigValues, "gateway_username" | "gateway_password" | "sender_id">,
  message: { to: string; text: string; reference: string; test?: boolean },
): { headers: Record<string, string>; body: string } {
  const payload: HttpGatewayMessage = {
    username: config.gateway_username,
    password: config.gateway_password,
    from: config.sender_id,
    sender_id: config.sender_id,
    to: message.to,
    text: message.text,
    reference: message.reference,
    ...(message.test ? { test: true } : {}),
  };
  const basic = btoa(String.fromCharCode(...new TextEncoder().encode(`${config.gateway_username}:${config.gateway_password}`)));
  return {
    headers: { "content-type": "application/json", authorization: `Basic ${basic}` },
    body: JSON.stringify(payload),
  };
}

/** One SMPP gateway as listed: the password is always the mask. */
export const smsGatewayViewSchema = z.object({
  id: z.string(),
  gatewayName: z.string(),
  shortcode: z.string(),
  port: z.number().int(),
  smsType: z.enum(SMS_TYPES),
  apiUrl: z.string(),
  username: z.string(),
  /** Passwords never leave the server: whether one is stored. */
  password_set: z.boolean(),
});
export type SmsGatewayView = z.infer<typeof smsGatewayViewSchema>;
export const smsGatewayConfigsResponseSchema = z.object({ success: z.literal(true), configs: z.array(smsGatewayViewSchema) });
export const smsGatewayConfigResponseSchema = z.object({ success: z.literal(true), config: smsGatewayViewSchema });

/** The integration settings as shown: the gateway password masked, the webhook URL computed. */
export const smsIntegrationConfigViewSchema = z.object({
  enabled: z.boolean(),
  gateway_url: z.string(),
  gateway_username: z.string(),
  gateway_password_set: z.boolean(),
  sender_id: z.string(),
  gateway_format: z.enum(SMS_GATEWAY_FORMATS),
  webhook_secret_set: z.boolean(),
  webhook_secret_previous_until: z.string().nullable(),
  webhook_auth: z.enum(SMS_WEBHOOK_AUTH_MODES),
  webhook_username: z.string(),
  webhook_allowed_ips: z.array(z.string()),
  webhook_query_token: z.boolean(),
  webhook_url: z.string(),
  rate_limit_per_minute: z.number().int(),
  auto_reply_enabled: z.boolean(),
  welcome_message: z.string(),
  insufficient_funds_message: z.string(),
});
export const smsIntegrationConfigResponseSchema = z.object({ success: z.literal(true), config: smsIntegrationConfigViewSchema });

/**
 * test_gateway: `success` mirrors the test, so a client reading only it still sees a failed test.
 * rotate_webhook_secret: the new secret, answered this once, and the configuration.
 */
export const smsGatewayTestResponseSchema = z.union([
  z.object({
    success: z.boolean(),
    test_result: z.object({ success: z.boolean(), error: z.string().nullable() }),
    error: z.string().optional(),
  }),
  z.object({ success: z.literal(true), webhook_secret: z.string(), config: smsIntegrationConfigViewSchema }),
]);

const smsPageSchema = pageInfoSchema.extend({ limit: z.number().int() });
/** One step of the SMS log as the logs view lists it. */
export const smsLogRowSchema = z.object({
  id: z.string(),
  action: z.enum(SMS_LOG_ACTIONS),
  user_id: z.string().nullable(),
  user_name: z.string(),
  phone: z.string(),
  /** JSON text (the screen pretty-prints it). */
  details: z.string(),
  message_id: z.string().nullable(),
  created_at: z.string(),
});
export type SmsLogRow = z.infer<typeof smsLogRowSchema>;
/** One SMS in or out as the messages view lists it (with its outbound state, cost and receipt). */
export const smsMessageRowSchema = z.looseObject({
  id: z.string(),
  direction: z.enum(SMS_DIRECTIONS),
  user_id: z.string().nullable(),
  user_name: z.string(),
  phone: z.string(),
  message: z.string(),
  /** The gateway's answer to the send, as text. */
  gateway_response: z.string(),
  created_at: z.string(),
});
export type SmsMessageRow = z.infer<typeof smsMessageRowSchema>;
export const smsStatsSchema = z.object({
  basic_stats: z.object({
    total_logs: z.number().int(),
    replies_sent: z.number().int(),
    unique_users: z.number().int(),
    unknown_users: z.number().int(),
  }),
  top_users: z.array(
    z.object({ name: z.string().nullable(), phone: z.string(), total_sms: z.number().int(), replies_received: z.number().int() }),
  ),
});
export type SmsStats = z.infer<typeof smsStatsSchema>;
/** `action` says which of the three views `data` holds. */
export const smsLogsResponseSchema = z.discriminatedUnion("action", [
  z.object({
    success: z.literal(true),
    action: z.literal("logs"),
    data: smsPageSchema.extend({ logs: z.array(smsLogRowSchema) }),
  }),
  z.object({
    success: z.literal(true),
    action: z.literal("messages"),
    data: smsPageSchema.extend({ messages: z.array(smsMessageRowSchema) }),
  }),
  z.object({ success: z.literal(true), action: z.literal("stats"), data: smsStatsSchema }),
]);
export type SmsLogsResponse = z.infer<typeof smsLogsResponseSchema>;

/** 202 queued, or 200 for a gateway message id already accepted. */
export const smsWebhookResponseSchema = z.object({
  success: z.literal(true),
  queued: z.boolean(),
  duplicate: z.boolean(),
  message_id: z.string(),
});
