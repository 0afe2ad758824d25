/**
 * Delivery receipts of messages sent over HTTP to Kannel or Jasmin (the SMPP receipts are the
 * worker's: workers/src/jobs/sms-reply/receipts.ts). The receipt names its message by the token
 * the sender put in its receipt URL; the record keeps only the token's hash.
 */
import { RECEIPT_TOKEN_LIFETIME_MS, receiptTokenHash, SmsMessage } from "@storefront/shared/server";
import { parseFormBytes } from "./sms-webhook";

/** The receipt's fields: the query string, then a form body (Jasmin posts its fields). */
export function receiptFields(url: string, body: Buffer): Record<string, string> {
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
  const fields: Record<string, string> = {};
  for (const source of [Buffer.from(query, "latin1"), body]) {
    for (const [name, value] of parseFormBytes(source)) fields[name] ??= value.toString("utf8");
  }
  return fields;
}

/** Kannel's receipt types (%d): 1 delivered, 2 failed, 16 refused by the SMSC; 4 and 8 say nothing final. */
const KANNEL_STATES: Record<string, string> = { "1": "DELIVRD", "2": "UNDELIV", "16": "REJECTD" };

/** The SMPP-style state of a receipt (as SMPP receipts store it), or null when it is not a final one. */
export function receiptState(fields: Record<string, string>): string | null {
  if (fields.message_status !== undefined) {
    // Jasmin: level 1 is only the SMSC's submit_sm_resp (ESME_ROK...), level 2 and 3 carry the receipt's stat.
    if (fields.level === "1") return null;
    const state = fields.message_status.trim().toUpperCase();
    return /^[A-Z]{4,10}$/u.test(state) && !state.startsWith("ESME_") ? state : null;
  }
  const kannel = KANNEL_STATES[(fields.status ?? "").trim()];
  if (!kannel) return null;
  // The SMSC's own words win when Kannel passes them (%A): "stat:EXPIRED" is more than "failed".
  return /stat:(\w+)/iu.exec(fields.answer ?? "")?.[1]?.toUpperCase() ?? kannel;
}

/**
 * Stores the receipt on its message: "unknown" for a token no message has, "expired" for one past
 * its lifetime (RECEIPT_TOKEN_LIFETIME_MS after the message's newest send; a record from before
 * the lifetime was stored counts from its creation), in both cases writing nothing; "ignored" for a
 * receipt that says nothing final, "recorded" otherwise.
 */
export async function recordHttpReceipt(
  fields: Record<string, string>,
  now = new Date(),
): Promise<"unknown" | "expired" | "ignored" | "recorded"> {
  const token = fields.t ?? "";
  if (!/^[A-Za-z0-9_-]{16,100}$/u.test(token)) return "unknown";
  const hash = receiptTokenHash(token);
  const message = await SmsMessage.findOne(
    { direction: "outbound", receipt_token_hashes: hash },
    { _id: 1, created_at: 1, receipt_tokens_until: 1 },
  ).lean<{ _id: unknown; created_at: Date; receipt_tokens_until?: Date | null }>();
  if (!message) return "unknown";
  const until = message.receipt_tokens_until ?? new Date(message.created_at.getTime() + RECEIPT_TOKEN_LIFETIME_MS);
  if (until <= now) return "expired";
  const state = receiptState(fields);
  if (!state) return "ignored";
  const at = now;
  await SmsMessage.updateOne(
    { _id: message._id, $or: [{ delivered_at: null }, { delivered_at: { $lte: at } }] },
    { $set: { delivery_status: state, delivered_at: at } },
  );
  return "recorded";
}
