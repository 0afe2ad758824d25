import { createHash } from "node:crypto";
import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { SMS_DIRECTIONS } from "../../constants";

/** What an outbound message is: an AI answer or one of the fixed texts. */
export const SMS_REPLY_KINDS = [
  "ai",
  "welcome",
  "insufficient_funds",
  "daily_cap",
  "opt_out",
  "opt_in",
  "low_balance",
  "phone_code",
] as const;
/**
 * Outbound life: prepared (text and price fixed) → sending (charged, for AI replies) → sent |
 * failed. A retried job resumes from the stored state, so nothing is charged or sent twice.
 */
export const SMS_OUTBOUND_STATES = ["prepared", "sending", "sent", "failed"] as const;

/** Every SMS in or out (SPEC §3 SMS message record). */
const smsMessageSchema = new Schema(
  {
    direction: { type: String, enum: SMS_DIRECTIONS, required: true },
    /** The subscriber's phone, whichever direction. */
    phone: { type: String, required: true },
    user_id: { type: Schema.Types.ObjectId, default: null },
    user_name: { type: String, default: "" },
    message: { type: String, default: "" },
    /** The gateway's answer to the send (outbound) as text. */
    gateway_response: { type: String, default: "" },
    /**
     * `in:<message key>` or `out:<key of the inbound it answers>` (smsMessageKey: gateway, sender,
     * recipient and gateway id; records from before it: the gateway id alone), `out:low-balance:<id>`,
     * `out:phone-code:<id>`: one record each.
     */
    key: { type: String, required: true, unique: true },
    /** Inbound: the gateway's id. Outbound: the id the gateway gave the sent message. */
    gateway_message_id: { type: String, default: null },
    /** Outbound over SMPP in several parts: the ids of the parts after the first (whose id and receipt stand for the message). */
    gateway_part_ids: { type: [String], default: undefined },
    /** Outbound over SMPP: the SMSC (host:port) whose ids those are; a receipt must come from it. */
    gateway_smsc: { type: String, default: null },
    shortcode: { type: String, default: "" },
    /** The gateway's id of the inbound message this answers (its record is `in:` + this record's key after `out:`). */
    in_reply_to: { type: String, default: null },
    kind: { type: String, enum: [...SMS_REPLY_KINDS, null], default: null },
    state: { type: String, enum: [...SMS_OUTBOUND_STATES, null], default: null },
    channel: { type: String, enum: ["http", "smpp", null], default: null },
    coins: { type: Number, default: 0 },
    segments: { type: Number, default: 0 },
    encoding: { type: String, default: null },
    /** Delivery receipt state (SMPP deliver_sm: DELIVRD, UNDELIV...). */
    delivery_status: { type: String, default: null },
    delivered_at: { type: Date, default: null },
    /**
     * Outbound over HTTP to Kannel or Jasmin: SHA-256 (hex) of the unguessable token each send puts
     * in its receipt URL (dlr-url), so the gateway's receipt finds this message and nobody else's.
     */
    receipt_token_hashes: { type: [String], default: undefined },
    /** Until when those tokens are taken (RECEIPT_TOKEN_LIFETIME_MS after the newest send); past it a receipt is refused. */
    receipt_tokens_until: { type: Date, default: undefined },
    /** Epoch ms the webhook accepted the inbound message this answers. */
    received_at: { type: Number, default: null },
    sent_at: { type: Date, default: null },
  },
  { timestamps: { createdAt: "created_at", updatedAt: "updated_at" } },
);
smsMessageSchema.index({ phone: 1, created_at: -1 });
smsMessageSchema.index({ created_at: -1 });
smsMessageSchema.index({ gateway_message_id: 1 });
smsMessageSchema.index({ gateway_part_ids: 1 }, { sparse: true });
smsMessageSchema.index({ receipt_token_hashes: 1 }, { sparse: true });

export type SmsMessageDoc = InferSchemaType<typeof smsMessageSchema> & { _id: Types.ObjectId; created_at: Date };
export const SmsMessage = mongoose.model("SmsMessage", smsMessageSchema);

/**
 * How long a receipt URL's token is taken after its send: SMSCs give up on a message within 72 hours
 * (the usual SMPP validity period), so a later receipt is a replay of an old URL (gateway logs, a
 * proxy's), never news.
 */
export const RECEIPT_TOKEN_LIFETIME_MS = 72 * 3600_000;

/** What an outbound record keeps of the token in its receipt URL (the token itself is never stored). */
export function receiptTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
