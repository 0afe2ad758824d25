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

/** An SMPP reply the sender is about to mark sent (its SMSC ids not written yet). */
async function sending(): Promise<{ id: mongoose.Types.ObjectId; first: string; parts: string[] }> {
  const doc = await SmsMessage.create({
    direction: "outbound",
    channel: "smpp",
    phone: "+15550001234",
    key: `out:${randomUUID()}`,
  });
  const tag = randomUUID();
  return { id: doc._id, first: `smsc-${tag}-1`, parts: [`smsc-${tag}-2`, `smsc-${tag}-3`] };
}

/** What the sender writes once the submits returned (workers/src/jobs/sms-reply/outbound.ts). */
async function markSent(message: { id: mongoose.Types.ObjectId; first: string; parts: string[] }): Promise<void> {
  await SmsMessage.updateOne(
    { _id: message.id },
    { $set: { state: "sent", gateway_message_id: message.first, gateway_part_ids: message.parts } },
  );
  await applyParkedReceipt(message.first, message.parts, redis);
}

const statusOf = async (id: mongoose.Types.ObjectId) => (await SmsMessage.findById(id).lean())?.delivery_status ?? null;

// Receipts that come before or after the sender's write, and those of later parts, are covered on
// the running stack (tests/integration/sms-integration.test.ts, "over SMPP"); this forces the one
// interleaving a full run hits only now and then.
describe("SMPP delivery receipts", () => {
  it("applies a receipt whose message got its ids between the receipt's update and its look-up", async () => {
    const message = await sending();
    const update = SmsMessage.updateOne.bind(SmsMessage);
    // The sender's write lands right after the receipt's first update missed (as in a full run).
    const spy = vi.spyOn(SmsMessage, "updateOne").mockImplementationOnce(((...args: Parameters<typeof update>) =>
      update(...args)
        .exec()
        .then(async (missed) => {
          await markSent(message);
          return missed;
        })) as unknown as typeof SmsMessage.updateOne);
    try {
      await recordReceipt({ messageId: message.first, state: "DELIVRD", error: null, raw: "" }, redis);
    } finally {
      spy.mockRestore();
    }
    expect(await statusOf(message.id)).toBe("DELIVRD");
  });
});
