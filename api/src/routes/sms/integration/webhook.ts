import express, { type Request } from "express";
import { smsInboundSchema, smsWebhookResponseSchema } from "@storefront/shared";
import { unavailable } from "../../../errors";
import {
  acceptInbound,
  bodyFields,
  fallbackMessageId,
  gatewayOf,
  inboundFrom,
  replayKeyOf,
  SmsTextError,
  verifyWebhook,
  webhookAuthSettings,
  type Accepted,
  type SignedRequest,
} from "../../../services/sms-webhook";
import { recordWebhookFailure, refuseThrottledWebhook } from "../../../services/webhook-failures";
import { defineRawRoute, TAGS, type RawRoute } from "../../define";
import { SMS_RECEIPT_PATHS } from "./receipt";

export const SMS_WEBHOOK_PATHS = ["/sms/integration/webhook.php", "/sms/webhook"] as const;
/** The receipt URL of Kannel and Jasmin (receipt.ts): its query carries a message's receipt token. */
const SECRET_QUERY_PATHS = [...SMS_WEBHOOK_PATHS, ...SMS_RECEIPT_PATHS];

/**
 * The URL as the request log shows it: a webhook or receipt call without its query string, which
 * may carry the webhook secret (`?token=`) for gateways that cannot send it otherwise, or a
 * message's receipt token.
 */
export function loggedUrl(url: string): string {
  const path = url.split("?")[0]!;
  return SECRET_QUERY_PATHS.some((p) => path === `/api${p}` || path.startsWith(`/api${p}/`)) ? path : url;
}

/**
 * A GET call's fields as a form body: Kannel's sms-service `get-url` puts the message in the query
 * string (captured in tests/integration/sms-kannel.test.ts). The token is the credential, not a field.
 */
function queryAsForm(url: string): Buffer {
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
  return Buffer.from(
    query
      .split("&")
      .filter((pair) => pair && !/^token(=|$)/u.test(pair))
      .join("&"),
    "latin1",
  );
}

/** Jasmin retries a message until the answer's body is exactly this. */
const JASMIN_ACK = "ACK/Jasmin";

function header(req: Request, name: string): string | undefined {
  const value = req.get(name);
  return value === undefined || value === "" ? undefined : value;
}

/**
 * The gateway's webhook. Mounted under /api before the global JSON parser: the signature covers
 * the raw bytes, so this route reads the body itself.
 */
const webhookRoute = (method: "post" | "get"): Omit<RawRoute, "kind"> => ({
  method,
  paths: SMS_WEBHOOK_PATHS,
  ownBody: true,
  tag: TAGS.sms,
  summary:
    method === "post"
      ? "Inbound SMS from the gateway (JSON or form fields), signed"
      : "Inbound SMS from Kannel's get-url (fields in the query string)",
  description:
    "Authenticity: `X-Signature` is the hex HMAC-SHA256 (optionally prefixed `sha256=`) of `<X-Signature-Timestamp>.<raw request body>` " +
    "keyed with the webhook secret; `X-Signature-Timestamp` is Unix seconds and is rejected beyond 5 minutes of skew. Gateways that " +
    "cannot sign use the integration's chosen method instead: HTTP Basic, an `X-Webhook-Token` header, or (only when enabled) " +
    "`?token=`, optionally behind a source-address allowlist (docs/operations.md). Secrets are compared in constant time; a bad or " +
    "missing one answers 401 and starts nothing, and failed calls are counted per address (429 past the limit). A message is " +
    "known by its gateway (`gateway`, `smsc` or Jasmin's `origin-connector` field, else `?gateway=` in the URL unless the call is " +
    "HMAC-signed: a signature covers the body, not a POST's URL), sender, recipient and " +
    "gateway message id together: the same four again are accepted once (200, `duplicate: true`), the same id from another sender or " +
    "gateway is a message of its own; the same signed request again within its window is a duplicate too. Jasmin's form-encoded " +
    "MO gets its `ACK/Jasmin` answer.",
  auth: "webhook",
  body: smsInboundSchema,
  status: 202,
  response: smsWebhookResponseSchema,
  errors: [400, 401, 429, 503],
  middleware: [express.raw({ type: () => true, limit: "64kb" })],
  raw: (ctx) => async (req, res) => {
    const ip = req.ip ?? "";
    await refuseThrottledWebhook(ctx, ip);
    const get = req.method === "GET";
    const rawBody = get ? queryAsForm(req.originalUrl) : Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const token = typeof req.query.token === "string" ? req.query.token : undefined;
    const signed: SignedRequest = {
      rawBody,
      signature: header(req, "X-Signature"),
      timestamp: header(req, "X-Signature-Timestamp"),
      token,
      authorization: header(req, "Authorization"),
      tokenHeader: header(req, "X-Webhook-Token"),
      ip: req.ip ?? "",
    };
    const verdict = verifyWebhook(signed, await webhookAuthSettings());
    if (!verdict.ok) {
      await recordWebhookFailure(ctx, "bad_signature", verdict.reason, ip);
      res.status(401).json({ success: false, error: "Invalid webhook signature", code: "unauthorized" });
      return;
    }

    let fields: Record<string, unknown>;
    try {
      fields = bodyFields(rawBody, get ? "application/x-www-form-urlencoded" : req.get("content-type"));
    } catch (error) {
      const known = error instanceof SmsTextError;
      const message = known ? error.message : "body: malformed JSON";
      const field = known ? message.split(":")[0]! : "body";
      await recordWebhookFailure(ctx, "bad_request", known ? message : "malformed body", ip);
      res.status(400).json({ success: false, error: message, code: "bad_request", field });
      return;
    }
    const parsed = inboundFrom(fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join(".") || "body";
      const message = issue?.message.startsWith(field) ? issue.message : `${field}: ${issue?.message ?? "invalid"}`;
      await recordWebhookFailure(ctx, "bad_request", message, ip);
      res.status(400).json({ success: false, error: message, code: "bad_request", field });
      return;
    }

    let accepted: Accepted;
    try {
      // A signature covers the body (a GET's query as its fields), never a POST's URL: a signed
      // request names its gateway in what was signed, or not at all, and is itself marked once.
      const bySignature = verdict.via === "signature";
      const gateway = gatewayOf(fields, bySignature ? undefined : req.query.gateway);
      const replayKey = bySignature ? replayKeyOf(signed) : undefined;
      const fallbackId = fallbackMessageId(signed);
      accepted = await acceptInbound(ctx.redis, ctx.queues["sms-reply"], parsed.data, fallbackId, gateway, replayKey);
    } catch (error) {
      // Nothing was queued and the id was forgotten: a 503 makes the gateway deliver it again.
      req.log.warn({ err: error }, "sms webhook could not queue the message");
      throw unavailable("The message could not be queued; please retry");
    }
    if (typeof fields["origin-connector"] === "string") {
      // Jasmin's MO format: it redelivers until it reads its acknowledgement with a 200.
      res.status(200).type("text/plain").send(JASMIN_ACK);
      return;
    }
    res.status(accepted.duplicate ? 200 : 202).json({
      success: true,
      queued: !accepted.duplicate,
      duplicate: accepted.duplicate,
      message_id: accepted.messageId,
    });
  },
});

export const smsWebhookRoutes = [defineRawRoute(webhookRoute("post")), defineRawRoute(webhookRoute("get"))];
