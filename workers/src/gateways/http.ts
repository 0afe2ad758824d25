/** Outbound SMS through the HTTP gateway of the SMS integration config (POST JSON to gateway_url). */
import { httpGatewayRequest, type SmsIntegrationConfigValues } from "@storefront/shared";
import { DEFAULT_RETRY, GatewayError, withRetries, type OutboundSms, type RetryPolicy, type SendResult } from "./types";

export interface HttpGatewayOptions {
  timeoutMs?: number;
  retry?: RetryPolicy;
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

async function sendOnce(config: HttpGatewayConfig, sms: OutboundSms, timeoutMs: number): Promise<SendResult> {
  const request = httpGatewayRequest(config, sms);
  let res: Response;
  try {
    res = await fetch(config.gateway_url, { method: "POST", ...request, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    const what = e.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message);
    throw new GatewayError(`HTTP gateway unreachable: ${what}`, true);
  }
  const text = (await res.text().catch(() => "")).slice(0, 2000);
  if (res.ok) return { gatewayMessageId: messageIdOf(text), response: text || `HTTP ${res.status}` };
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
  return withRetries(() => sendOnce(config, sms, timeoutMs), options.retry ?? DEFAULT_RETRY);
}
