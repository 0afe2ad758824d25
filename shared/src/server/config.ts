/**
 * Every environment variable of DESIGN §4, read once and validated. A bad value stops the
 * process with a message naming the variable.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { isPhoneCountry, type PhoneCountry } from "../phone";
import { currencyCodeSchema } from "../schemas/storefront";
import { OPERATOR_BILLINGS } from "./billing/index";

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().min(1);
const optionalUrl = z.url().optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\/.+/u, "must be a mongodb:// or mongodb+srv:// URI"),
  REDIS_URL: z.string().regex(/^rediss?:\/\/.+/u, "must be a redis:// or rediss:// URL"),
  SESSION_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  ADMIN_USERNAME: z.string().trim().min(3, "must be at least 3 characters").max(100).optional(),
  ADMIN_PASSWORD: z.string().min(10, "must be at least 10 characters").max(200).optional(),
  AI_PROVIDER: z.enum(["offline", "openai"]).default("offline"),
  OPENAI_BASE_URL: z.url().default("https://api.openai.com/v1"),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_CHAT_MODEL: z.string().default("gpt-4o-mini"),
  OPENAI_IMAGE_MODEL: z.string().default("gpt-image-1"),
  VIDEO_PROVIDER: z.enum(["offline", "runway"]).default("offline"),
  VIDEO_API_BASE_URL: optionalUrl,
  VIDEO_API_KEY: z.string().optional(),
  /** Image provider; defaults to AI_PROVIDER (a chat-only endpoint such as Ollama can keep offline images). */
  IMAGE_PROVIDER: z.enum(["offline", "openai"]).optional(),
  /** Upper bound of one provider HTTP call (a streamed chat reply included). */
  AI_TIMEOUT_MS: positiveInt.default(120_000),
  /** X-Runway-Version header of the video API. */
  VIDEO_API_VERSION: z.string().min(1).default("2024-11-06"),
  /** Delay between video status polls; defaults to the provider's own (offline 1 s, runway 5 s). */
  VIDEO_POLL_INTERVAL_MS: positiveInt.optional(),
  /** A video still processing after this long is failed and its coins released. */
  VIDEO_MAX_WAIT_MS: positiveInt.default(30 * 60_000),
  DATA_DIR: z.string().min(1).default("./data"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Number of reverse proxies in front of the API, for client IPs and Secure cookies. */
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  /** Comma-separated queues a worker process serves; all when unset. */
  WORKER_QUEUES: z.string().optional(),
  WORKER_CONCURRENCY_CHAT: positiveInt.default(4),
  WORKER_CONCURRENCY_IMAGE: positiveInt.default(2),
  WORKER_CONCURRENCY_VIDEO: positiveInt.default(2),
  WORKER_CONCURRENCY_SMS_REPLY: positiveInt.default(4),
  WORKER_CONCURRENCY_MAINTENANCE: positiveInt.default(1),
  /** How long an HTTP call waits for its job before answering 504. */
  JOB_WAIT_TIMEOUT_MS: positiveInt.default(60_000),
  /**
   * A call a subscriber waits on (chat, Doctor, SMS AI, images) stops retrying a failing provider
   * when the next try would start later than this after the request; it is then failed and refunded.
   */
  AI_RETRY_BUDGET_MS: positiveInt.default(10_000),
  /** Tries per job (transient provider errors are retried, permanent ones are not). */
  JOB_ATTEMPTS: positiveInt.default(3),
  /** First retry delay; doubles per attempt (or the provider's Retry-After when longer). */
  JOB_BACKOFF_MS: positiveInt.default(2000),
  /** A worker that stops renewing its lock this long (crash, SIGKILL) hands its job to another. */
  WORKER_LOCK_DURATION_MS: positiveInt.default(30_000),
  /** SIGTERM lets active jobs finish this long; the rest are handed back to other workers. */
  WORKER_SHUTDOWN_GRACE_MS: positiveInt.default(25_000),
  /** The hold sweeper leaves holds younger than this alone (the job may still be being added). */
  HOLD_SWEEP_AFTER_MS: positiveInt.default(60_000),
  /** A job still waiting this long after its hold is removed and its coins released. */
  HOLD_MAX_AGE_MS: positiveInt.default(6 * 3600_000),
  HOLD_SWEEP_INTERVAL_MS: positiveInt.default(30_000),
  LEDGER_RECONCILE_INTERVAL_MS: positiveInt.default(60_000),
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Login attempts allowed per phone (or admin username) per minute. */
  LOGIN_RATE_LIMIT_PER_MINUTE: positiveInt.default(10),
  /** Login attempts allowed per client address per minute. */
  LOGIN_RATE_LIMIT_PER_IP_PER_MINUTE: positiveInt.default(60),
  /**
   * Signups allowed per client address per hour (each costs an argon2 hash). A signup whose number
   * is proven gives its place back (carrier NAT puts many real phones behind one address).
   */
  SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR: positiveInt.default(20),
  /** Minutes a phone code works, and seconds before another may be sent to the same number. */
  PHONE_CODE_TTL_MINUTES: positiveInt.default(10),
  PHONE_CODE_RESEND_SECONDS: positiveInt.default(60),
  /** Wrong tries that burn a phone code. */
  PHONE_CODE_MAX_ATTEMPTS: positiveInt.default(5),
  /** Codes sent per number, per client address, and in all (each is an SMS we pay for), per hour. */
  PHONE_CODES_PER_NUMBER_PER_HOUR: positiveInt.default(5),
  PHONE_CODES_PER_IP_PER_HOUR: positiveInt.default(20),
  PHONE_CODES_PER_HOUR: positiveInt.default(1000),
  /** Codes sent to one number per hour by everyone together: the most SMS one victim can be sent. */
  PHONE_CODES_TO_NUMBER_PER_HOUR: positiveInt.default(10),
  /**
   * Of PHONE_CODES_PER_HOUR, the codes kept for signed-in accounts asking for their own number:
   * visitors and other numbers stop this many short of the cap.
   */
  PHONE_CODES_OWN_RESERVE_PER_HOUR: z.coerce.number().int().min(0).default(200),
  /** Codes sent per destination country per UTC day (SMS pumping pours into one country's premium numbers). */
  PHONE_CODES_PER_COUNTRY_PER_DAY: positiveInt.default(5000),
  /**
   * Wrong tries of codes for one number by everyone together, per hour and per day: past them the
   * number cannot be proven until the window ends (guessing one number is bounded whatever the askers).
   */
  PHONE_CODE_WRONG_TRIES_PER_NUMBER_PER_HOUR: positiveInt.default(30),
  PHONE_CODE_WRONG_TRIES_PER_NUMBER_PER_DAY: positiveInt.default(100),
  /**
   * Tries of a code (right or wrong) per account or signed-out visitor, and per client address, per
   * hour, over all their codes: each code also burns after PHONE_CODE_MAX_ATTEMPTS wrong tries.
   */
  PHONE_CODE_TRIES_PER_HOUR: positiveInt.default(20),
  PHONE_CODE_TRIES_PER_IP_PER_HOUR: positiveInt.default(100),
  /**
   * Countries whose numbers get codes by SMS: "*" (every country), or ISO 3166 two-letter codes
   * separated by commas ("SA,AE,EG"): SMS pumping sends codes to premium numbers abroad. Unset (or
   * empty): DEFAULT_PHONE_COUNTRY's alone (loadConfig).
   */
  PHONE_CODE_COUNTRIES: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx): "*" | PhoneCountry[] | undefined => {
      if (value === undefined) return undefined;
      if (value === "*") return "*";
      const codes = value.split(",").map((code) => code.trim().toUpperCase());
      const unknown = codes.filter((code) => !isPhoneCountry(code));
      if (unknown.length || !codes.length) {
        ctx.addIssue({
          code: "custom",
          message: `must be * or two-letter country codes such as SA,AE,EG (not ${unknown.join(", ") || "empty"})`,
        });
        return z.NEVER;
      }
      return codes as PhoneCountry[];
    }),
  /** Password changes (right or wrong current password) allowed per user per hour. */
  PASSWORD_CHANGE_RATE_LIMIT_PER_HOUR: positiveInt.default(10),
  /** Redemption code attempts (right or wrong) per user, and per client address, per hour. */
  REDEEM_RATE_LIMIT_PER_HOUR: positiveInt.default(20),
  /** Changes of a subscriber's spending limits per hour (each one empties the user cache on every process). */
  SETTINGS_RATE_LIMIT_PER_HOUR: positiveInt.default(60),
  REDEEM_RATE_LIMIT_PER_IP_PER_HOUR: positiveInt.default(100),
  /** A balance below this many coins after a charge sends one low-balance notice per crossing (0 turns it off). */
  LOW_BALANCE_THRESHOLD: z.coerce.number().int().min(0).max(1_000_000).default(50),
  /** Low-balance SMS sent per subscriber per UTC day at most (each one is a free SMS we pay for). */
  LOW_BALANCE_SMS_PER_DAY: positiveInt.default(3),
  /**
   * Web Push (VAPID, RFC 8292): the server's key pair, base64url (`npm start` makes one on first
   * run and keeps it in DATA_DIR/vapid.json). Without both, push is off: GET /api/push/key answers 503.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{80,100}$/u, "must be a base64url P-256 public key")
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{40,50}$/u, "must be a base64url P-256 private key")
    .optional(),
  /** Who push services contact about this sender: a mailto: or https: URL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(?:mailto:|https:\/\/).+/u, "must be a mailto: or https: URL")
    .default("mailto:admin@localhost"),
  /**
   * The push services a subscription's endpoint may point to (comma-separated origins; a host alone
   * takes any port): the server posts to these and nowhere else, so a subscriber cannot aim it at
   * an internal address. The browsers' own services by default.
   */
  PUSH_SERVICES: z
    .string()
    .default(
      "https://fcm.googleapis.com,https://updates.push.services.mozilla.com,https://web.push.apple.com,https://*.notify.windows.com",
    ),
  /** Failed (unsigned, malformed) SMS webhook calls per client address per minute before 429s. */
  WEBHOOK_FAILURE_LIMIT_PER_MINUTE: positiveInt.default(30),
  /**
   * Comma-separated origins (scheme://host[:port]) allowed to make cookie-authorised calls and
   * open sockets, besides the app's own (the request's Host and PUBLIC_BASE_URL).
   */
  ALLOWED_ORIGINS: z
    .string()
    .default("")
    .transform((value, ctx) => {
      const origins: string[] = [];
      for (const item of value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)) {
        const origin = URL.canParse(item) ? new URL(item).origin : "null";
        if (origin === "null") ctx.addIssue({ code: "custom", message: `"${item}" is not an origin (scheme://host[:port])` });
        else origins.push(origin);
      }
      return origins;
    }),
  PUBLIC_BASE_URL: optionalUrl,
  /** Serve /api/docs and /api/openapi.json to anyone; otherwise to administrators only. */
  API_DOCS_PUBLIC: z
    .enum(["true", "false"], { error: "must be true or false" })
    .default("false")
    .transform((v) => v === "true"),
  /** Lets the HTTP SMS gateway live on loopback, link-local or private addresses (a gateway on the same host or LAN). */
  SMS_GATEWAY_ALLOW_PRIVATE: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /** Region of phone numbers typed without "+" or "00" (ISO 3166 two letters), for the one stored E.164 form. */
  DEFAULT_PHONE_COUNTRY: z
    .string()
    .trim()
    .toUpperCase()
    .refine(isPhoneCountry, "must be a two-letter country code such as US, SA or EG")
    .transform((v) => v as PhoneCountry)
    .default("US"),
  /** Currency of package prices and revenue (ISO 4217), shown with Intl.NumberFormat in the reader's language. */
  CURRENCY: currencyCodeSchema
    .refine((code) => Intl.supportedValuesOf("currency").includes(code), "is not a currency code this runtime knows")
    .default("USD"),
  /** Visitors' reads of the public price list (storefront.php) allowed per client address per minute. */
  STOREFRONT_RATE_LIMIT_PER_IP_PER_MINUTE: positiveInt.default(600),
  /**
   * The built-in operator billing: "offline" sells nothing to subscribers (wallet/buy.php answers
   * 503) and renews the packages administrators assign; "offline-demo" also sells, for nothing
   * (demo and test stacks). A real provider is put in by code (docs/operations.md).
   */
  OPERATOR_BILLING: z.enum(OPERATOR_BILLINGS, { error: `must be one of ${OPERATOR_BILLINGS.join(", ")}` }).default("offline"),
});

export type Config = Omit<z.infer<typeof envSchema>, "PHONE_CODE_COUNTRIES"> & {
  SESSION_SECRET: string;
  dataDir: string;
  PHONE_CODE_COUNTRIES: "*" | PhoneCountry[];
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const config = parsed.data;
  if (!config.SESSION_SECRET && config.NODE_ENV === "production") {
    throw new ConfigError("Invalid environment:\n  SESSION_SECRET: required in production");
  }
  if (Boolean(config.VAPID_PUBLIC_KEY) !== Boolean(config.VAPID_PRIVATE_KEY)) {
    throw new ConfigError("Invalid environment:\n  VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY: set both or neither");
  }
  if (Boolean(config.ADMIN_USERNAME) !== Boolean(config.ADMIN_PASSWORD)) {
    throw new ConfigError("Invalid environment:\n  ADMIN_USERNAME / ADMIN_PASSWORD: set both or neither");
  }
  if (config.PHONE_CODES_OWN_RESERVE_PER_HOUR >= config.PHONE_CODES_PER_HOUR) {
    throw new ConfigError("Invalid environment:\n  PHONE_CODES_OWN_RESERVE_PER_HOUR: must be less than PHONE_CODES_PER_HOUR");
  }
  return {
    ...config,
    PHONE_CODE_COUNTRIES: config.PHONE_CODE_COUNTRIES ?? [config.DEFAULT_PHONE_COUNTRY],
    SESSION_SECRET: config.SESSION_SECRET ?? randomBytes(32).toString("hex"),
    dataDir: path.resolve(config.DATA_DIR),
  };
}

/** Loads the config or exits the process with the message naming the bad variable. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
