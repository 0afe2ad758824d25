import { randomBytes } from "node:crypto";
import mongoose, { Schema } from "mongoose";
import { SMS_INTEGRATION_DEFAULTS } from "../../constants";
import { SMS_GATEWAY_FORMATS, SMS_WEBHOOK_AUTH_MODES, type SmsIntegrationConfigValues } from "../../schemas/sms-integration";

/**
 * One document (`_id: "sms"`): the SMS integration settings of SPEC §3. Documents saved before
 * the webhook authentication choice existed read as HMAC only (no query token), the safe default.
 */
const smsIntegrationConfigSchema = new Schema(
  {
    _id: { type: String, default: "sms" },
    enabled: { type: Boolean, default: SMS_INTEGRATION_DEFAULTS.enabled },
    gateway_url: { type: String, default: "" },
    gateway_username: { type: String, default: "" },
    gateway_password: { type: String, default: "" },
    sender_id: { type: String, default: "" },
    gateway_format: { type: String, enum: SMS_GATEWAY_FORMATS, default: "json" },
    webhook_secret: { type: String, default: "" },
    webhook_secret_previous: { type: String, default: "" },
    webhook_secret_previous_until: { type: Date, default: null },
    webhook_auth: { type: String, enum: SMS_WEBHOOK_AUTH_MODES, default: "hmac" },
    webhook_username: { type: String, default: "" },
    webhook_allowed_ips: { type: [String], default: [] },
    webhook_query_token: { type: Boolean, default: false },
    rate_limit_per_minute: { type: Number, default: SMS_INTEGRATION_DEFAULTS.rate_limit_per_minute },
    auto_reply_enabled: { type: Boolean, default: SMS_INTEGRATION_DEFAULTS.auto_reply_enabled },
    welcome_message: { type: String, default: SMS_INTEGRATION_DEFAULTS.welcome_message },
    insufficient_funds_message: { type: String, default: SMS_INTEGRATION_DEFAULTS.insufficient_funds_message },
  },
  { timestamps: true },
);

export const SmsIntegrationConfig = mongoose.model("SmsIntegrationConfig", smsIntegrationConfigSchema);

/**
 * The settings, seeded with SPEC §9's defaults on first read. The webhook secret is generated
 * then, so the webhook never accepts unsigned traffic for lack of a secret.
 */
export async function loadSmsIntegrationConfig(): Promise<SmsIntegrationConfigValues> {
  // A plain read on every webhook call; the seeding write happens once.
  const doc =
    (await SmsIntegrationConfig.findById("sms").lean()) ??
    (await SmsIntegrationConfig.findOneAndUpdate(
      { _id: "sms" },
      { $setOnInsert: { webhook_secret: randomBytes(24).toString("hex") } },
      { upsert: true, returnDocument: "after", lean: true, setDefaultsOnInsert: true },
    ));
  return {
    enabled: doc?.enabled ?? SMS_INTEGRATION_DEFAULTS.enabled,
    gateway_url: doc?.gateway_url ?? "",
    gateway_username: doc?.gateway_username ?? "",
    gateway_password: doc?.gateway_password ?? "",
    sender_id: doc?.sender_id ?? "",
    gateway_format: doc?.gateway_format ?? "json",
    webhook_secret: doc?.webhook_secret ?? "",
    webhook_secret_previous: doc?.webhook_secret_previous ?? "",
    webhook_secret_previous_until: doc?.webhook_secret_previous_until ? doc.webhook_secret_previous_until.getTime() : null,
    webhook_auth: doc?.webhook_auth ?? "hmac",
    webhook_username: doc?.webhook_username ?? "",
    webhook_allowed_ips: doc?.webhook_allowed_ips ?? [],
    webhook_query_token: doc?.webhook_query_token ?? false,
    rate_limit_per_minute: doc?.rate_limit_per_minute ?? SMS_INTEGRATION_DEFAULTS.rate_limit_per_minute,
    auto_reply_enabled: doc?.auto_reply_enabled ?? SMS_INTEGRATION_DEFAULTS.auto_reply_enabled,
    welcome_message: doc?.welcome_message ?? SMS_INTEGRATION_DEFAULTS.welcome_message,
    insufficient_funds_message: doc?.insufficient_funds_message ?? SMS_INTEGRATION_DEFAULTS.insufficient_funds_message,
  };
}
