import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it, inject, vi } from "vitest";
import { SmsMessage } from "@storefront/shared/server";
import { applyParkedReceipt, recordReceipt } from "./receipts";

let redis: Redis;

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/receipts_unit"));
  await SmsMessage.createIndexes();
  redis = new Redis(inject("redisUrl"));
});
afterAll(async () => {
  redis.disconnect();
  await mongoose.disconnect();
});

const SMSC = "smsc-a.example:2775";

interface Sending {
  id: mongoose.Types.ObjectId;
  first: string;
  parts: string[];
  smsc: string;
}

/** An SMPP reply the sender is about to mark sent (its SMSC ids not written yet). */
async function sending(smsc = SMSC): Promise<Sending> {
  const doc = await SmsMessage.create({
    direction: "outbound",
    channel: "smpp",
    phone: "+15550001234",
    key: `out:${randomUUID()}`,
  });
  const tag = randomUUID();
  return { id: doc._id, first: `smsc-${tag}-1`, parts: [`smsc-${tag}-2`, `smsc-${tag}-3`], smsc };
}

/** What the sender writes once the submits returned (workers/src/jobs/sms-reply/outbound.ts). */
async function markSent(message: Sending): Promise<void> {
  await SmsMessage.updateOne(
    { _id: message.id },
    { $set: { state: "sent", gateway_message_id: message.first, gateway_part_ids: message.parts, gateway_smsc: message.smsc } },
  );
  await applyParkedReceipt(message.smsc, message.first, message.parts, redis);
}

const receipt = (messageId: string, smsc: string, state: string) => ({ messageId, smsc, state, error: null, raw: "" });

const statusOf = async (id: mongoose.Types.ObjectId) => (await SmsMessage.findById(id).lean())?.delivery_status ?? null;

// Receipts that come before or after the sender's write, and those of later parts, are covered on
// the running stack (tests/integration/sms-integration.test.ts, "over SMPP"); this forces the one
// interleaving a full run hits only now and then.
describe("SMPP delivery receipts", () => {
  it("applies a receipt whose message got its ids between the receipt's update and its look-up", async () => {
    const message = await sending();
    const update = SmsMessage.findOneAndUpdate.bind(SmsMessage);
    // The sender's write lands right after the receipt's first update missed (as in a full run).
    const spy = vi.spyOn(SmsMessage, "findOneAndUpdate").mockImplementationOnce(((...args: Parameters<typeof update>) =>
      update(...args)
        .exec()
        .then(async (missed) => {
          await markSent(message);
          return missed;
        })) as unknown as typeof SmsMessage.findOneAndUpdate);
    try {
      await recordReceipt(receipt(message.first, SMSC, "DELIVRD"), redis);
    } finally {
      spy.mockRestore();
    }
    expect(await statusOf(message.id)).toBe("DELIVRD");
  });

  it("applies a receipt only to the message of the SMSC it came from, when two SMSCs gave the same id", async () => {
    // SMSC ids are often counters: two gateways can hand out the same one.
    const a = await sending("smsc-a.example:2775");
    const b = await sending("smsc-b.example:2775");
    b.first = a.first;
    await markSent(a);
    await markSent(b);
    await recordReceipt(receipt(a.first, a.smsc, "UNDELIV"), redis);
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(["UNDELIV", null]);
    await recordReceipt(receipt(b.first, b.smsc, "DELIVRD"), redis);
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(["UNDELIV", "DELIVRD"]);
    // From a third SMSC the id names neither: the receipt is parked for a message of its own.
    await recordReceipt(receipt(a.first, "smsc-c.example:2775", "EXPIRED"), redis);
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(["UNDELIV", "DELIVRD"]);
    expect(await redis.exists(`sms:receipt:smsc-c.example:2775:${a.first}`)).toBe(1);
  });

  it("applies a receipt by id alone to a message recorded without its SMSC in the last day, after its own SMSC's", async () => {
    /** A message sent before the SMSC was stored with its ids. */
    const legacy = async (first: string, sentAt: Date) => {
      const message = await sending();
      await SmsMessage.updateOne({ _id: message.id }, { $set: { state: "sent", gateway_message_id: first, sent_at: sentAt } });
      return message;
    };
    const recent = await sending();
    await legacy(recent.first, new Date(Date.now() - 60_000)).then(async (old) => {
      await recordReceipt(receipt(recent.first, SMSC, "DELIVRD"), redis);
      expect(await statusOf(old.id)).toBe("DELIVRD");
      // A message of the receipt's own SMSC with the same id comes first, even with the old one undelivered.
      await SmsMessage.updateOne({ _id: old.id }, { $set: { delivery_status: null, delivered_at: null } });
      await markSent(recent);
      await recordReceipt(receipt(recent.first, SMSC, "UNDELIV"), redis);
      expect([await statusOf(recent.id), await statusOf(old.id)]).toEqual(["UNDELIV", null]);
    });
    const stale = await sending();
    const twoDaysAgo = await legacy(stale.first, new Date(Date.now() - 2 * 24 * 60 * 60 * 1000));
    await recordReceipt(receipt(stale.first, SMSC, "DELIVRD"), redis);
    expect(await statusOf(twoDaysAgo.id)).toBeNull();
  });

  it("gives a receipt to the newest of its SMSC's messages with that id when the SMSC's counter came round", async () => {
    const older = await sending();
    const newer = await sending();
    newer.first = older.first;
    await markSent(older);
    await markSent(newer);
    // Made in one millisecond, as two sends in a burst can be: the later one is still the newer.
    const sameMs = new Date();
    await SmsMessage.collection.updateMany({ _id: { $in: [older.id, newer.id] } }, { $set: { created_at: sameMs } });
    await recordReceipt(receipt(older.first, SMSC, "DELIVRD"), redis);
    expect([await statusOf(older.id), await statusOf(newer.id)]).toEqual([null, "DELIVRD"]);
  });
});
