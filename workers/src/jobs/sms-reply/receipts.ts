/**
 * SMPP delivery receipts. A receipt names the message by the id the SMSC gave it in
 * submit_sm_resp, which the sender writes on the outbound record once the submit returns. A fast
 * SMSC can send the receipt before that write lands: such a receipt is parked in Redis under the
 * message id, and the sender applies it right after writing the id.
 *
 * Neither side can miss the other: the receipt side tries the record, parks, then tries again; the
 * sender writes the id, then takes what is parked. Whatever the interleaving, one of the two
 * updates sees both halves (applying a receipt twice sets the same fields twice). A try that misses
 * and then finds the id written (the sender's write fell between its update and its look-up)
 * updates once more rather than taking the receipt as handled.
 *
 * A reply sent in several parts gets a receipt per part; the first part's stands for the message
 * (docs/decisions.md), the others are recognised by the part ids the sender stores and dropped.
 *
 * Ids are the SMSC's own, so a receipt only applies to a message sent through the SMSC it came from
 * (`gateway_smsc`), the newest one with that id when a counter came round again (by creation time, then by `_id` for two made in one millisecond). A message recorded
 * before that field existed and sent in the last day (receipts come within hours) is matched by its
 * id alone, as it was then, but only when no message of the receipt's SMSC has the id.
 */
import type { Redis } from "ioredis";
import { SmsMessage } from "@storefront/shared/server";
import type { DeliveryReceipt } from "../../gateways/smpp";

/** How long an early receipt waits for its message's id (a submit that never returns leaves it). */
const PARKED_TTL_SECONDS = 24 * 60 * 60;
const parkedKey = (smsc: string, gatewayMessageId: string) => `sms:receipt:${smsc}:${gatewayMessageId}`;
/** How long after its send a message recorded without its SMSC still takes a receipt by id alone. */
const LEGACY_RECEIPT_WINDOW_MS = 24 * 60 * 60 * 1000;

interface Parked {
  state: string;
  at: number;
}

/**
 * Sets the receipt on the message unless a later one is already there (a parked receipt applied
 * after a newer one came straight through). True when a message has this id, as itself or as a part.
 */
async function apply(smsc: string, gatewayMessageId: string, state: string, at: Date): Promise<boolean> {
  const outbound = { direction: "outbound", channel: "smpp" };
  const legacy = { gateway_smsc: null, sent_at: { $gte: new Date(at.getTime() - LEGACY_RECEIPT_WINDOW_MS) } };
  const update = (from: object) =>
    SmsMessage.findOneAndUpdate(
      {
        ...outbound,
        ...from,
        gateway_message_id: gatewayMessageId,
        $or: [{ delivered_at: null }, { delivered_at: { $lte: at } }],
      },
      { $set: { delivery_status: state, delivered_at: at } },
      { sort: { created_at: -1, _id: -1 }, projection: { _id: 1 }, lean: true },
    );
  const known = (from: object) =>
    SmsMessage.findOne(
      { ...outbound, ...from, $or: [{ gateway_message_id: gatewayMessageId }, { gateway_part_ids: gatewayMessageId }] },
      { gateway_message_id: 1 },
    )
      .sort({ created_at: -1, _id: -1 })
      .lean<{ gateway_message_id: string | null }>();

  for (const from of [{ gateway_smsc: smsc }, legacy]) {
    if (await update(from)) return true;
    const message = await known(from);
    if (!message) continue;
    // The sender wrote the id between the update and this read: the update runs again and lands,
    // unless a later receipt is already stored. (Taking the id as known without it dropped the receipt.)
    if (message.gateway_message_id === gatewayMessageId) await update(from);
    return true;
  }
  return false;
}

/** Records a delivery receipt (SMPP deliver_sm) on the outbound message it is about. */
export async function recordReceipt(receipt: DeliveryReceipt, redis: Redis): Promise<void> {
  const { smsc, messageId, state } = receipt;
  const at = new Date();
  if (await apply(smsc, messageId, state, at)) return;
  const parked: Parked = { state, at: at.getTime() };
  await redis.set(parkedKey(smsc, messageId), JSON.stringify(parked), "EX", PARKED_TTL_SECONDS);
  if (await apply(smsc, messageId, state, at)) await redis.del(parkedKey(smsc, messageId));
}

/**
 * After the sender wrote a message's SMSC ids: applies a receipt for the message that came before
 * them, if one did, and drops those of its later parts.
 */
export async function applyParkedReceipt(smsc: string, gatewayMessageId: string, partIds: string[], redis: Redis): Promise<void> {
  const [raw] = await Promise.all([
    redis.getdel(parkedKey(smsc, gatewayMessageId)),
    partIds.length ? redis.del(...partIds.map((id) => parkedKey(smsc, id))) : undefined,
  ]);
  if (!raw) return;
  const parked = JSON.parse(raw) as Parked;
  await apply(smsc, gatewayMessageId, parked.state, new Date(parked.at));
}
