import express, { Router, type Request } from "express";
import type { AppContext } from "../../../context";
import { unavailable } from "../../../errors";
import {
  acceptInbound,
  bodyFields,
  fallbackMessageId,
  inboundFrom,
  verifyWebhook,
  webhookSecret,
  type Accepted,
  type SignedRequest,
} from "../../../services/sms-webhook";
import { recordWebhookFailure, refuseThrottledWebhook } from "../../../services/webhook-failures";

export const SMS_WEBHOOK_PATHS = ["/sms/integration/webhook.php", "/sms/webhook"];

function header(req: Request, name: string): string | undefined {
  const value = req.get(name);
  return value === undefined || value === "" ? undefined : value;
}

/**
 * The gateway's webhook. Mounted under /api before the global JSON parser: the signature covers
 * the raw bytes, so this route reads the body itself.
 */
export function smsWebhookRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post(SMS_WEBHOOK_PATHS, express.raw({ type: () => true, limit: "64kb" }), async (req, res) => {
    const ip = req.ip ?? "";
    await refuseThrottledWebhook(ctx, ip);
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
      await recordWebhookFailure(ctx, "bad_signature", verdict.reason, ip);
      res.status(401).json({ success: false, error: "Invalid webhook signature", code: "unauthorized" });
      return;
    }

    let fields: Record<string, unknown>;
    try {
      fields = bodyFields(rawBody, req.get("content-type"));
    } catch {
      await recordWebhookFailure(ctx, "bad_request", "malformed body", ip);
      res.status(400).json({ success: false, error: "body: malformed JSON", code: "bad_request", field: "body" });
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
  });
  return router;
}
