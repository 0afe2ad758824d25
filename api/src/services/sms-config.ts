/**
 * The SMS integration settings (SPEC §2 SMS Integration → Configuration), the Test Gateway
 * action and the webhook secret's rotation. Secrets are write-only: no answer carries them,
 * except a freshly generated secret, once, to the administrator who rotated it.
 */
import { randomBytes, randomUUID } from "node:crypto";
import {
  httpGatewayRequest,
  MASKED_SECRET,
  isPublicAddress,
  parseIp,
  WEBHOOK_SECRET_OVERLAP_MS,
  type SmsGatewayFormat,
  type SmsIntegrationConfigRequest,
  type SmsIntegrationConfigValues,
  type SmsIntegrationConfigView,
} from "@storefront/shared";
import {
  GatewayHttpError,
  loadSmsIntegrationConfig,
  postToGateway,
  resolveGatewayTarget,
  SmsIntegrationConfig,
} from "@storefront/shared/server";
import { badRequest } from "../errors";
import { SMS_WEBHOOK_PATHS } from "../routes/sms/integration/webhook";
import { forgetWebhookSecret } from "./sms-webhook";

const TEST_TIMEOUT_MS = 10_000;

export type SmsConfigView = SmsIntegrationConfigView;

function view(config: SmsIntegrationConfigValues, baseUrl: string, now = Date.now()): SmsConfigView {
  const { gateway_password, webhook_secret, webhook_secret_previous: _previous, webhook_secret_previous_until, ...rest } = config;
  const previousUntil =
    webhook_secret_previous_until !== null && webhook_secret_previous_until > now ? webhook_secret_previous_until : null;
  return {
    ...rest,
    gateway_password_set: Boolean(gateway_password),
    webhook_secret_set: Boolean(webhook_secret),
    webhook_secret_previous_until: previousUntil === null ? null : new Date(previousUntil).toISOString(),
    webhook_url: `${baseUrl.replace(/\/+$/u, "")}/api${SMS_WEBHOOK_PATHS[0]}`,
  };
}

export async function smsConfigView(baseUrl: string): Promise<SmsConfigView> {
  return view(await loadSmsIntegrationConfig(), baseUrl);
}

const typed = (password: string | undefined): password is string => Boolean(password) && password !== MASKED_SECRET;

/**
 * The stored password may only go to the URL it was typed for: a new gateway URL (another
 * host, or the same host under another path) needs the password again.
 */
function passwordFor(current: SmsIntegrationConfigValues, url: string, given: string | undefined): string {
  if (typed(given)) return given;
  // No URL, nothing to send a password to: it is dropped rather than asked for.
  if (!url) return "";
  if (url !== current.gateway_url && current.gateway_password)
    throw badRequest("gateway_password is required when gateway_url changes", "gateway_password");
  return url === current.gateway_url ? current.gateway_password : "";
}

/**
 * A new gateway URL typed as a loopback, link-local or private address (or localhost) is refused
 * when the workers would refuse to send to it (resolveGatewayTarget): the form says so, instead of
 * every reply failing later and being refunded. A host name is checked at each send only, as its
 * DNS answers change; a URL already stored is not judged again when other settings are saved.
 */
function refusePrivateAddress(url: string, current: SmsIntegrationConfigValues, allowPrivate: boolean): void {
  if (!url || url === current.gateway_url || allowPrivate) return;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/u, "$1").toLowerCase();
  const address = host === "localhost" || host.endsWith(".localhost") ? parseIp("127.0.0.1") : parseIp(host);
  if (address && !isPublicAddress(address))
    throw badRequest(
      "gateway_url is a loopback, link-local or private address; set SMS_GATEWAY_ALLOW_PRIVATE=true to allow it",
      "gateway_url",
    );
}

/** The previous secret stays valid for the overlap, so messages signed with it are not refused. */
function rotated(current: SmsIntegrationConfigValues, secret: string, keepPrevious: boolean, now = Date.now()) {
  return {
    webhook_secret: secret,
    webhook_secret_previous: keepPrevious ? current.webhook_secret : "",
    webhook_secret_previous_until: keepPrevious && current.webhook_secret ? new Date(now + WEBHOOK_SECRET_OVERLAP_MS) : null,
  };
}

/** Saves the form; an empty or masked password and an empty secret keep the stored ones. */
export async function saveSmsConfig(
  input: SmsIntegrationConfigRequest,
  baseUrl: string,
  allowPrivate: boolean,
): Promise<SmsConfigView> {
  const current = await loadSmsIntegrationConfig();
  refusePrivateAddress(input.gateway_url, current, allowPrivate);
  const auth = input.webhook_auth ?? current.webhook_auth;
  const username = input.webhook_username ?? current.webhook_username;
  if (auth === "basic" && !username)
    throw badRequest("webhook_username is required for HTTP Basic authentication", "webhook_username");
  const newSecret = input.webhook_secret && input.webhook_secret !== current.webhook_secret ? input.webhook_secret : null;
  const set = {
    enabled: input.enabled,
    gateway_url: input.gateway_url,
    gateway_username: input.gateway_username,
    gateway_password: passwordFor(current, input.gateway_url, input.gateway_password),
    sender_id: input.sender_id,
    gateway_format: input.gateway_format ?? current.gateway_format,
    webhook_auth: auth,
    webhook_username: username,
    webhook_allowed_ips: input.webhook_allowed_ips ?? current.webhook_allowed_ips,
    webhook_query_token: input.webhook_query_token ?? current.webhook_query_token,
    rate_limit_per_minute: input.rate_limit_per_minute,
    auto_reply_enabled: input.auto_reply_enabled,
    welcome_message: input.welcome_message,
    insufficient_funds_message: input.insufficient_funds_message,
    ...(newSecret ? rotated(current, newSecret, true) : {}),
  };
  await SmsIntegrationConfig.updateOne({ _id: "sms" }, { $set: set }, { upsert: true });
  forgetWebhookSecret();
  return smsConfigView(baseUrl);
}

/** A new random secret, answered this once; the old one is accepted for the overlap unless `keepPrevious` is false. */
export async function rotateWebhookSecret(keepPrevious: boolean, baseUrl: string) {
  const current = await loadSmsIntegrationConfig();
  const secret = randomBytes(32).toString("base64url");
  await SmsIntegrationConfig.updateOne({ _id: "sms" }, { $set: rotated(current, secret, keepPrevious) }, { upsert: true });
  forgetWebhookSecret();
  return { webhook_secret: secret, config: await smsConfigView(baseUrl) };
}

export interface GatewayTestResult {
  success: boolean;
  error: string | null;
}

export interface GatewayTestInput {
  gateway_url?: string | undefined;
  gateway_format?: SmsGatewayFormat | undefined;
  gateway_username?: string | undefined;
  gateway_password?: string | undefined;
}

/**
 * The Test Gateway request in the gateway's own interface, sending nothing to anyone: our JSON test
 * message flagged `test: true`; Kannel's sendsms with the credentials and no recipient (it answers
 * 400 "Missing receiver number" once they are right, 403 "Authorization failed" otherwise); Jasmin's
 * `/balance` beside its `/send` (200 with the right credentials, 403 otherwise). Answers captured
 * from the real gateways (docs/operations.md).
 */
function testRequest(
  format: SmsGatewayFormat,
  url: string,
  config: { gateway_username: string; gateway_password: string; sender_id: string },
) {
  const credentials = new URLSearchParams({ username: config.gateway_username, password: config.gateway_password });
  if (format === "kannel" || format === "jasmin") {
    const target = new URL(format === "jasmin" ? url.replace(/\/send\/?$/u, "/balance") : url);
    for (const [name, value] of credentials) target.searchParams.set(name, value);
    // Kannel answers a missing recipient only after the credentials passed; anything else is no Kannel that knows them.
    const ok =
      format === "kannel"
        ? (status: number, text: string) => status === 400 && /^Missing receiver number/u.test(text)
        : (status: number) => status === 200;
    return { url: target.toString(), request: { method: "GET" as const, headers: {}, body: "" }, ok };
  }
  const request = httpGatewayRequest(config, { to: "", text: "Gateway test", reference: `test-${randomUUID()}`, test: true });
  return { url, request, ok: (status: number, _text: string) => status >= 200 && status < 300 };
}

/**
 * Really contacts the HTTP gateway, in its interface and without sending a message (testRequest): the
 * stored settings, or the form's unsaved URL, format and credentials. The gateway's answer is never
 * echoed (the URL could point at an internal service); only its status is reported.
 */
export async function testSmsGateway(input: GatewayTestInput, allowPrivate: boolean): Promise<GatewayTestResult> {
  const current = await loadSmsIntegrationConfig();
  const url = input.gateway_url ?? current.gateway_url;
  if (!url) return { success: false, error: "Gateway URL is not configured" };
  const config = {
    gateway_username: input.gateway_username ?? current.gateway_username,
    gateway_password: passwordFor(current, url, input.gateway_password),
    sender_id: current.sender_id,
  };
  const test = testRequest(input.gateway_format ?? current.gateway_format, url, config);
  const checked = await resolveGatewayTarget(test.url, { allowPrivate });
  if (!checked.ok) return { success: false, error: checked.reason };
  try {
    const res = await postToGateway(checked.target, test.request, { timeoutMs: TEST_TIMEOUT_MS, maxBytes: 200 });
    if (test.ok(res.status, res.text)) return { success: true, error: null };
    if (res.status === 401 || res.status === 403)
      return { success: false, error: `The gateway refused the credentials (HTTP ${res.status})` };
    return { success: false, error: `The gateway answered HTTP ${res.status}` };
  } catch (error) {
    if (error instanceof GatewayHttpError && error.code === "timeout")
      return { success: false, error: `No answer from the gateway within ${TEST_TIMEOUT_MS / 1000} s` };
    return { success: false, error: `The gateway could not be reached (${(error as Error).message})` };
  }
}
