/**
 * The requests of the outbound HTTP formats an operator can choose (SMS integration settings,
 * `gateway_format`): our own JSON, Kannel's `sendsms` interface and Jasmin's HTTP API `/send`.
 * Kannel's and Jasmin's were run against the real gateways (tests/integration/sms-kannel.test.ts,
 * sms-jasmin.test.ts), whose answers are recorded there.
 */
import { httpGatewayRequest, smsEncoding, type SmsGatewayFormat, type SmsIntegrationConfigValues } from "@storefront/shared";
import type { OutboundSms } from "./types";

export type HttpGatewayConfig = Pick<
  SmsIntegrationConfigValues,
  "gateway_url" | "gateway_username" | "gateway_password" | "sender_id"
> & {
  /** Our JSON when omitted. */
  gateway_format?: SmsGatewayFormat;
};

export interface GatewayRequest {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body: string;
}

/**
 * Kannel's receipt types (dlr-mask bits, %d in dlr-url): 1 delivered, 2 failed, 16 refused by
 * the SMSC. 4 (buffered) and 8 (taken by the SMSC) are not asked for: they say nothing final.
 */
export const KANNEL_DLR_MASK = 1 + 2 + 16;

function kannelRequest(config: HttpGatewayConfig, sms: OutboundSms): GatewayRequest {
  const ucs2 = smsEncoding(sms.text).encoding === "UCS-2";
  const params = new URLSearchParams({
    username: config.gateway_username,
    password: config.gateway_password,
    ...(config.sender_id ? { from: config.sender_id } : {}),
    to: sms.to,
    text: sms.text,
    // Kannel's coding: 0 the default alphabet, 2 UCS-2; the text is given in UTF-8 and Kannel converts it.
    charset: "UTF-8",
    coding: ucs2 ? "2" : "0",
  });
  if (sms.receiptUrl) {
    params.set("dlr-mask", String(KANNEL_DLR_MASK));
    // Kannel fills in %d (the receipt type) and %A (the SMSC's receipt text) when it calls it.
    params.set("dlr-url", `${sms.receiptUrl}&status=%d&answer=%A`);
  }
  const url = new URL(config.gateway_url);
  for (const [name, value] of params) url.searchParams.set(name, value);
  return { url: url.toString(), method: "GET", headers: {}, body: "" };
}

function jasminRequest(config: HttpGatewayConfig, sms: OutboundSms): GatewayRequest {
  const ucs2 = smsEncoding(sms.text).encoding === "UCS-2";
  const text = Buffer.from(sms.text, "utf16le");
  text.swap16();
  const params = new URLSearchParams({
    username: config.gateway_username,
    password: config.gateway_password,
    ...(config.sender_id ? { from: config.sender_id } : {}),
    to: sms.to.replace(/^\+/u, ""),
    coding: ucs2 ? "8" : "0",
    // UCS-2 as its bytes in hex (Jasmin reads `content` as bytes, not as UTF-8 text).
    ...(ucs2 ? { "hex-content": text.toString("hex") } : { content: sms.text }),
  });
  if (sms.receiptUrl) {
    params.set("dlr", "yes");
    params.set("dlr-url", sms.receiptUrl);
    // 2: the SMSC's delivery receipt (1 would be its submit_sm_resp only).
    params.set("dlr-level", "2");
    params.set("dlr-method", "POST");
  }
  return {
    url: config.gateway_url,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: params.toString(),
  };
}

/** The request for one outbound message in the configured format. */
export function gatewayRequest(config: HttpGatewayConfig, sms: OutboundSms): GatewayRequest {
  const format: SmsGatewayFormat = config.gateway_format ?? "json";
  if (format === "kannel") return kannelRequest(config, sms);
  if (format === "jasmin") return jasminRequest(config, sms);
  return { url: config.gateway_url, method: "POST", ...httpGatewayRequest(config, sms) };
}

/** The gateway's id of the accepted message: Jasmin's `Success "<id>"`, or an id field of a JSON answer. */
export function messageIdOf(format: SmsGatewayFormat, text: string): string | null {
  if (format === "jasmin") return /^Success "([^"]+)"/u.exec(text.trim())?.[1] ?? null;
  if (format === "kannel") return null;
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
