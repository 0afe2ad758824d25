/**
 * SMPP delivery receipts. A receipt names the message by the id the SMSC gave it in
 * submit_sm_resp, which the sender writes on the outbound record once the submit returns. A fast
 * SMSC can send the receipt before that write lands: such a receipt is parked in Redis under the
 * message id, and the sender applies it right after writing the id.
 *
 * Neither side can miss the other: the receipt side tries the record, parks, then tries again; the
 * sender writes the id, then takes what is parked. Whatever the interleaving, one of the two
 * updates sees both halves (applying a receipt twice sets the same fields twice).
 */
import type { Redis } from "ioredis";
import { SmsMessage } from "@storefront/shared/server";
import type { DeliveryReceipt } from "../../gateways/smpp";

/** How long an early receipt waits for its message's id (a submit that never returns leaves it). */
const PARKED_TTL_SECONDS = 24 * 60 * 60;
const parkedKey = (gatewayMessageId: string) => `sms:receipt:${gatewayMessageId}`;

interface Parked {
  state: string;
  at: number;
}

/**
 * Sets the receipt on the message unless a later one is already there (a parked receipt applied
 * after a newer one came straight through). True when the message exists.
 */
async function apply(gatewayMessageId: string, state: string, at: Date): Promise<boolean> {
  const message = { direction: "outbound", channel: "smpp", gateway_message_id: gatewayMessageId };
  const { matchedCount } = await SmsMessage.updateOne(
    { ...message, $or: [{ delivered_at: null }, { delivered_at: { $lte: at } }] },
    { $set: { delivery_status: state, delivered_at: at } },
  );
  return matchedCount > 0 || (await SmsMessage.exists(message)) !== null;
}

/** Records a delivery receipt (SMPP deliver_sm) on the outbound message it is about. */
export async function recordReceipt(receipt: DeliveryReceipt, redis: Redis): Promise<void> {
  const at = new Date();
  if (await apply(receipt.messageId, receipt.state, at)) return;
  const parked: Parked = { state: receipt.state, at: at.getTime() };
  await redis.set(parkedKey(receipt.messageId), JSON.stringify(parked), "EX", PARKED_TTL_SECONDS);
  if (await apply(receipt.messageId, receipt.state, at)) await redis.del(parkedKey(receipt.messageId));
}

/** After the sender wrote a message's SMSC id: applies a receipt that came before it, if one did. */
export async function applyParkedReceipt(gatewayMessageId: string, redis: Redis): Promise<void> {
  const raw = await redis.getdel(parkedKey(gatewayMessageId));
  if (!raw) return;
  const parked = JSON.parse(raw) as Parked;
  await apply(gatewayMessageId, parked.state, new Date(parked.at));
}
