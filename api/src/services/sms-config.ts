/** The SMS integration settings (SPEC §2 SMS Integration → Configuration) and the Test Gateway action. */
import { randomUUID } from "node:crypto";
import {
  httpGatewayRequest,
  MASKED_SECRET,
  type SmsIntegrationConfigRequest,
  type SmsIntegrationConfigValues,
} from "@storefront/shared";
import { loadSmsIntegrationConfig, SmsIntegrationConfig } from "@storefront/shared/server";
import { SMS_WEBHOOK_PATHS } from "../routes/sms/integration/webhook";
import { forgetWebhookSecret } from "./sms-webhook";

const TEST_TIMEOUT_MS = 10_000;

export type SmsConfigView = Omit<SmsIntegrationConfigValues, "gateway_password"> & {
  /** The mask when a password is stored, "" when none. */
  gateway_password: string;
  gateway_password_set: boolean;
  /** Where the gateway must post inbound messages (read-only on the screen). */
  webhook_url: string;
};

function view(config: SmsIntegrationConfigValues, baseUrl: string): SmsConfigView {
  return {
    ...config,
    gateway_password: config.gateway_password ? MASKED_SECRET : "",
    gateway_password_set: Boolean(config.gateway_password),
    webhook_url: `${baseUrl.replace(/\/+$/u, "")}/api${SMS_WEBHOOK_PATHS[0]}`,
  };
}

export async function smsConfigView(baseUrl: string): Promise<SmsConfigView> {
  return view(await loadSmsIntegrationConfig(), baseUrl);
}

/** Saves the whole form; an empty or masked password and an empty secret keep the stored ones. */
export async function saveSmsConfig(input: SmsIntegrationConfigRequest, baseUrl: string): Promise<SmsConfigView> {
  const current = await loadSmsIntegrationConfig();
  const next: SmsIntegrationConfigValues = {
    enabled: input.enabled,
    gateway_url: input.gateway_url,
    gateway_username: input.gateway_username,
    gateway_password:
      input.gateway_password === "" || input.gateway_password === MASKED_SECRET
        ? current.gateway_password
        : input.gateway_password,
    sender_id: input.sender_id,
    webhook_secret: input.webhook_secret || current.webhook_secret,
    rate_limit_per_minute: input.rate_limit_per_minute,
    auto_reply_enabled: input.auto_reply_enabled,
    welcome_message: input.welcome_message,
    insufficient_funds_message: input.insufficient_funds_message,
  };
  await SmsIntegrationConfig.updateOne({ _id: "sms" }, { $set: next }, { upsert: true });
  forgetWebhookSecret();
  return view(next, baseUrl);
}

export interface GatewayTestResult {
  success: boolean;
  error: string | null;
}

/** Really contacts the configured HTTP gateway with a test message flagged `test: true`. */
export async function testSmsGateway(): Promise<GatewayTestResult> {
  const config = await loadSmsIntegrationConfig();
  if (!config.gateway_url) return { success: false, error: "Gateway URL is not configured" };
  const request = httpGatewayRequest(config, { to: "", text: "Gateway test", reference: `test-${randomUUID()}`, test: true });
  try {
    const res = await fetch(config.gateway_url, {
      method: "POST",
      ...request,
      signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
    });
    const text = (await res.text()).slice(0, 300);
    if (res.ok) return { success: true, error: null };
    return { success: false, error: `HTTP ${res.status}${text ? `: ${text}` : ""}` };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    if (e.name === "TimeoutError")
      return { success: false, error: `No answer from the gateway within ${TEST_TIMEOUT_MS / 1000} s` };
    return { success: false, error: e.cause?.code ?? e.cause?.message ?? e.message };
  }
}
