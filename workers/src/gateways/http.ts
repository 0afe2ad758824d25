/**
 * Outbound SMS through the HTTP gateway of the SMS integration config (our JSON, Kannel's sendsms
 * or Jasmin's /send: http-formats.ts),
 * under the same address policy as the API's Test Gateway: no loopback, link-local or private
 * address unless SMS_GATEWAY_ALLOW_PRIVATE allows it, checked on every send (DNS answers change)
 * and pinned for the request.
 */
import { GatewayHttpError, postToGateway, resolveGatewayTarget, smsGatewayAllowPrivate } from "@storefront/shared/server";
import { gatewayRequest, messageIdOf, type HttpGatewayConfig } from "./http-formats";
import { DEFAULT_RETRY, GatewayError, withRetries, type OutboundSms, type RetryPolicy, type SendResult } from "./types";

export interface HttpGatewayOptions {
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Defaults to SMS_GATEWAY_ALLOW_PRIVATE of the process environment. */
  allowPrivate?: boolean;
  /**
   * PUBLIC_BASE_URL: where Kannel and Jasmin send delivery receipts (a per-message token is added).
   * Unset, those formats ask for no receipts.
   */
  receiptBaseUrl?: string | undefined;
}

async function sendOnce(
  config: HttpGatewayConfig,
  sms: OutboundSms,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<SendResult> {
  const request = gatewayRequest(config, sms);
  const checked = await resolveGatewayTarget(request.url, { allowPrivate });
  // A refused address stays refused on retry; a name that did not resolve may resolve later.
  if (!checked.ok) throw new GatewayError(`HTTP gateway refused: ${checked.reason}`, /not found/u.test(checked.reason));
  let res: { status: number; text: string };
  try {
    res = await postToGateway(checked.target, request, { timeoutMs, maxBytes: 2000 });
  } catch (error) {
    const what = error instanceof GatewayHttpError ? error.message : (error as Error).message;
    throw new GatewayError(`HTTP gateway unreachable: ${what}`, true);
  }
  const text = res.text;
  if (res.status >= 200 && res.status < 300)
    return { gatewayMessageId: messageIdOf(config.gateway_format ?? "json", text), response: text || `HTTP ${res.status}` };
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
