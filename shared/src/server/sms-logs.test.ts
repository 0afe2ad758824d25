/** The SMS log's owner against the MongoDB-compatible server: each keyed row is written once. */
import mongoose, { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SmsLog } from "./models/sms-log";
import { logSmsSteps, logWebhookError, smsMessageDone } from "./sms-logs";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri"));
  await SmsLog.createIndexes();
});

afterAll(async () => {
  await mongoose.disconnect();
});

const newMessageId = () => `unit-${new Types.ObjectId().toHexString()}`;

describe("logSmsSteps", () => {
  it("writes each step of a message once: a retry leaves the first row as it was", async () => {
    const messageId = newMessageId();
    const userId = new Types.ObjectId();
    const subject = { messageId, userId, userName: "Sara", phone: "+15550001234" };
    expect(await smsMessageDone(messageId)).toBe(false);

    await logSmsSteps(subject, [
      ["webhook_received", "received", { text: "hi" }],
      ["sms_processed", "processed", { result: "replied" }],
    ]);
    await logSmsSteps({ ...subject, userName: "Other" }, [["sms_processed", "processed", { result: "failed" }]]);

    const rows = await SmsLog.find({ message_id: messageId }).sort({ key: 1 }).lean();
    expect(rows.map((r) => [r.key, r.action, r.user_name, String(r.user_id), JSON.parse(r.details)])).toEqual([
      [`${messageId}:processed`, "sms_processed", "Sara", String(userId), { result: "replied" }],
      [`${messageId}:received`, "webhook_received", "Sara", String(userId), { text: "hi" }],
    ]);
    expect(await smsMessageDone(messageId)).toBe(true);
  });

  it("stores a user id given as text as the user's ObjectId (a low-balance alert's failure)", async () => {
    const messageId = newMessageId();
    const userId = new Types.ObjectId();
    await logSmsSteps({ messageId, userId: userId.toHexString(), userName: "", phone: "" }, [
      ["sms_processed", "processed", { result: "failed", error: "gateway down" }],
    ]);
    const row = await SmsLog.findOne({ key: `${messageId}:processed` }).lean();
    expect(row?.user_id).toBeInstanceOf(Types.ObjectId);
    expect(row?.user_id?.equals(userId)).toBe(true);
  });
});

describe("logWebhookError", () => {
  it("keeps one row per window, with the details of the latest failure, even when written at once", async () => {
    const key = `error:203.0.113.9:${Date.now()}-${new Types.ObjectId().toHexString()}`;
    await Promise.all([1, 2, 3, 4].map((count) => logWebhookError(key, { reason: "bad signature", count })));
    await logWebhookError(key, { reason: "bad fields", count: 5 });

    const rows = await SmsLog.find({ key }).lean();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "webhook_error", phone: "", user_name: "" });
    expect(JSON.parse(rows[0]!.details)).toEqual({ reason: "bad fields", count: 5 });
  });
});
