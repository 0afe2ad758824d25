/**
 * Outbound SMS through the HTTP gateway of the SMS integration config (POST JSON to gateway_url),
 * under the same address policy as the API's Test Gateway: no loopback, link-local or private
 * address unless SMS_GATEWAY_ALLOW_PRIVATE allows it, checked on every send (DNS answers change)
 * and pinned for the request.
 */
import { httpGatewayRequest, type SmsIntegrationConfigValues } from "@storefront/shared";
import { GatewayHttpError, postToGateway, resolveGatewayTarget, smsGatewayAllowPrivate } from "@storefront/shared/server";
import { DEFAULT_RETRY, GatewayError, withRetries, type OutboundSms, type RetryPolicy, type SendResult } from "./types";

export interface HttpGatewayOptions {
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Defaults to SMS_GATEWAY_ALLOW_PRIVATE of the process environment. */
  allowPrivate?: boolean;
}

type HttpGatewayConfig = Pick<SmsIntegrationConfigValues, "gateway_url" | "gateway_username" | "gateway_password" | "sender_id">;

/** The gateway's id of the message, under the names gateways commonly use. */
function messageIdOf(text: string): string | null {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const name of ["message_id", "messageId", "id", "msg_id"]) {
      const value = body[name];
      if (typeof value === "string" || typeof value === "number") return String(value);
    }
  } catch {
    /* a plain-text answer carries no id we can read */
  }
  return null;
}

async function sendOnce(
  config: HttpGatewayConfig,
  sms: OutboundSms,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<SendResult> {
  const checked = await resolveGatewayTarget(config.gateway_url, { allowPrivate });
  // A refused address stays refused on retry; a name that did not resolve may resolve later.
  if (!checked.ok) throw new GatewayError(`HTTP gateway refused: ${checked.reason}`, /not found/u.test(checked.reason));
  const request = httpGatewayRequest(config, sms);
  let res: { status: number; text: string };
  try {
    res = await postToGateway(checked.target, request, { timeoutMs, maxBytes: 2000 });
  } catch (error) {
    const what = error instanceof GatewayHttpError ? error.message : (error as Error).message;
    throw new GatewayError(`HTTP gateway unreachable: ${what}`, true);
  }
  const text = res.text;
  if (res.status >= 200 && res.status < 300)
    return { gatewayMessageId: messageIdOf(text), response: text || `HTTP ${res.status}` };
  const retryable = res.status >= 500 || res.status === 429 || res.status === 408;
  throw new GatewayError(`HTTP gateway answered ${res.status}`, retryable, `HTTP ${res.status}: ${text}`);
}

export async function sendViaHttp(
  config: HttpGatewayConfig,
  sms: OutboundSms,
  options: HttpGatewayOptions = {},
): Promise<SendResult> {
  if (!config.gateway_url) throw new GatewayError("Gateway URL is not configured", false);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const allowPrivate = options.allowPrivate ?? smsGatewayAllowPrivate();
  return withRetries(() => sendOnce(config, sms, timeoutMs, allowPrivate), options.retry ?? DEFAULT_RETRY);
}
