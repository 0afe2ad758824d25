import express from "express";
import { SMS_RECEIPT_PATH } from "@storefront/shared";
import { recordHttpReceipt, receiptFields } from "../../../services/sms-receipts";
import { recordWebhookFailure, refuseThrottledWebhook } from "../../../services/webhook-failures";
import { defineRawRoute, TAGS, type RawRoute } from "../../define";

export const SMS_RECEIPT_PATHS = [SMS_RECEIPT_PATH, "/sms/receipt"] as const;

/**
 * Delivery receipts of messages sent through Kannel's sendsms or Jasmin's /send: the gateway calls
 * the dlr-url the message was sent with. Its `t` is the message's own unguessable token, the only
 * credential: a wrong or unknown one answers 404, stores nothing and counts as a failed webhook call.
 * A token past its lifetime (72 hours after its send) answers 410 and stores nothing; it was real, so
 * it does not count toward the address's failures (a gateway flushing old receipts is not throttled).
 */
const receiptRoute = (method: "get" | "post"): Omit<RawRoute, "kind"> => ({
  method,
  paths: SMS_RECEIPT_PATHS,
  ownBody: true,
  tag: TAGS.sms,
  summary: method === "get" ? "Delivery receipt from Kannel (dlr-url)" : "Delivery receipt from Jasmin (dlr-url, POST)",
  description:
    "`t` is the token of the message the receipt is about (put in its dlr-url when it was sent), taken for 72 hours after the send (410 past it). Kannel calls it with " +
    "`status` (its receipt type: 1 delivered, 2 failed, 16 refused by the SMSC) and `answer` (the SMSC's receipt text); " +
    "Jasmin posts `id`, `message_status` (DELIVRD, UNDELIV...) and `level`, and is answered `ACK/Jasmin`.",
  auth: "webhook",
  status: 200,
  response: { contentType: "text/plain", description: "`ACK/Jasmin` to Jasmin, `OK` to Kannel" },
  errors: [404, 410, 429],
  middleware: [express.raw({ type: () => true, limit: "16kb" })],
  raw: (ctx) => async (req, res) => {
    const ip = req.ip ?? "";
    await refuseThrottledWebhook(ctx, ip);
    const fields = receiptFields(req.originalUrl, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    const outcome = await recordHttpReceipt(fields);
    if (outcome === "unknown") {
      await recordWebhookFailure(ctx, "bad_receipt", "delivery receipt with an unknown token", ip);
      res.status(404).json({ success: false, error: "No message has this receipt token", code: "not_found", field: "t" });
      return;
    }
    if (outcome === "expired") {
      res.status(410).json({ success: false, error: "t: this receipt token has expired", code: "receipt_expired", field: "t" });
      return;
    }
    // Jasmin throws the receipt again until it reads its acknowledgement.
    res
      .status(200)
      .type("text/plain")
      .send(fields.message_status !== undefined ? "ACK/Jasmin" : "OK");
  },
});

export const smsReceiptRoutes = [defineRawRoute(receiptRoute("get")), defineRawRoute(receiptRoute("post"))];
