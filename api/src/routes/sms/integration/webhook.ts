import express, { type Request } from "express";
import { smsInboundSchema, smsWebhookResponseSchema } from "@storefront/shared";
import { unavailable } from "../../../errors";
import {
  acceptInbound,
  bodyFields,
  fallbackMessageId,
  inboundFrom,
  logWebhookError,
  verifyWebhook,
  webhookSecret,
  type Accepted,
  type SignedRequest,
} from "../../../services/sms-webhook";
import { defineRawRoute, TAGS } from "../../define";

export const SMS_WEBHOOK_PATHS = ["/sms/integration/webhook.php", "/sms/webhook"] as const;

function header(req: Request, name: string): string | undefined {
  const value = req.get(name);
  return value === undefined || value === "" ? undefined : value;
}

/**
 * The gateway's webhook. Mounted under /api before the global JSON parser: the signature covers
 * the raw bytes, so this route reads the body itself.
 */
export const smsWebhookRoutes = [
  defineRawRoute({
    method: "post",
    paths: SMS_WEBHOOK_PATHS,
    ownBody: true,
    tag: TAGS.sms,
    summary: "Inbound SMS from the gateway (JSON or form fields), signed",
    description:
      "Authenticity: `X-Signature` is the hex HMAC-SHA256 (optionally prefixed `sha256=`) of `<X-Signature-Timestamp>.<raw request body>` " +
      "keyed with the webhook secret; `X-Signature-Timestamp` is Unix seconds and is rejected beyond 5 minutes of skew. Gateways that " +
      "cannot sign pass `?token=<webhook secret>` instead. Both are compared in constant time; a bad or missing signature answers 401 " +
      "and starts nothing. A repeated gateway message id is accepted once (200, `duplicate: true`).",
    auth: "webhook",
    body: smsInboundSchema,
    status: 202,
    response: smsWebhookResponseSchema,
    errors: [400, 401, 429, 503],
    middleware: [express.raw({ type: () => true, limit: "64kb" })],
    raw: (ctx) => async (req, res) => {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const token = typeof req.query.token === "string" ? req.query.token : undefined;
      const signed: SignedRequest = {
        rawBody,
        signature: header(req, "X-Signature"),
        timestamp: header(req, "X-Signature-Timestamp"),
        token,
      };
      const verdict = verifyWebhook(signed, await webhookSecret());
      if (!verdict.ok) {
        await logWebhookError(verdict.reason, { ip: req.ip ?? "" });
        res.status(401).json({ success: false, error: "Invalid webhook signature", code: "unauthorized" });
        return;
      }

      let fields: Record<string, unknown>;
      try {
        fields = bodyFields(rawBody, req.get("content-type"));
      } catch {
        await logWebhookError("malformed body", { ip: req.ip ?? "" });
        res.status(400).json({ success: false, error: "body: malformed JSON", code: "bad_request", field: "body" });
        return;
      }
      const parsed = inboundFrom(fields);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.join(".") || "body";
        const message = issue?.message.startsWith(field) ? issue.message : `${field}: ${issue?.message ?? "invalid"}`;
        await logWebhookError(message, { ip: req.ip ?? "", fields: Object.keys(fields) });
        res.status(400).json({ success: false, error: message, code: "bad_request", field });
        return;
      }

      let accepted: Accepted;
      try {
        accepted = await acceptInbound(ctx.redis, ctx.queues["sms-reply"], parsed.data, fallbackMessageId(signed));
      } catch (error) {
        // Nothing was queued and the id was forgotten: a 503 makes the gateway deliver it again.
        req.log.warn({ err: error }, "sms webhook could not queue the message");
        throw unavailable("The message could not be queued; please retry");
      }
      res.status(accepted.duplicate ? 200 : 202).json({
        success: true,
        queued: !accepted.duplicate,
        duplicate: accepted.duplicate,
        message_id: accepted.messageId,
      });
    },
  }),
];
