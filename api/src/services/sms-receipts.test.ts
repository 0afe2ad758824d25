import { randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { RECEIPT_TOKEN_LIFETIME_MS, receiptTokenHash, SmsMessage } from "@storefront/shared/server";
import { receiptFields, receiptState, recordHttpReceipt } from "./sms-receipts";

describe("HTTP delivery receipts", () => {
  it("reads Kannel's receipt (captured: status=%d, answer=%A in the query)", () => {
    const fields = receiptFields(
      "/api/sms/integration/receipt.php?t=rLNkiDHhW-gSmhW6f0t-kqtlzzsb10u8&status=1&answer=id%3Asmsc-1+sub%3A001+dlvrd%3A001+submit+date%3A2401010000+done+date%3A2401010000+stat%3ADELIVRD+err%3A000+text%3A",
      Buffer.alloc(0),
    );
    expect(fields.t).toBe("rLNkiDHhW-gSmhW6f0t-kqtlzzsb10u8");
    expect(receiptState(fields)).toBe("DELIVRD");
    expect(receiptState({ status: "16" })).toBe("REJECTD");
    expect(receiptState({ status: "2", answer: "id:1 stat:EXPIRED err:000" })).toBe("EXPIRED");
    expect(receiptState({ status: "8" })).toBeNull();
  });

  it("reads Jasmin's receipt (captured: a form POST) and ignores its level-1 submit acknowledgement", () => {
    const body =
      "id=a5a0d530-952f-499a-8324-0abcaaf1f9f2&level=2&message_status=DELIVRD&connector=smsc-11&id_smsc=SMSC-11&sub=001&dlvrd=001" +
      "&subdate=2401010000&donedate=2401010000&err=000&text=";
    const fields = receiptFields("/api/sms/integration/receipt.php?t=CARJbf_XEhlxJu9lWCVqGCIyuR3BRkWH", Buffer.from(body));
    expect(fields).toMatchObject({ t: "CARJbf_XEhlxJu9lWCVqGCIyuR3BRkWH", message_status: "DELIVRD", level: "2" });
    expect(receiptState(fields)).toBe("DELIVRD");
    expect(receiptState({ message_status: "ESME_ROK", level: "1" })).toBeNull();
    expect(receiptState({ message_status: "ESME_ROK", level: "3" })).toBeNull();
    expect(receiptState({ message_status: "<script>", level: "2" })).toBeNull();
  });
});

describe("receipt tokens' lifetime", () => {
  beforeAll(() => mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/sms_receipts_unit")));
  afterAll(async () => {
    await mongoose.connection.dropDatabase();
    await mongoose.disconnect();
  });

  /** An outbound message sent with a receipt token, `sentAgo` ms ago (as the worker stores it), and the token. */
  async function sent(sentAgo: number, stored: "until" | "created only" = "until"): Promise<{ id: unknown; token: string }> {
    const token = randomBytes(24).toString("base64url");
    const at = Date.now() - sentAgo;
    const message = await SmsMessage.create({
      direction: "outbound",
      phone: "+14600059478",
      message: "reply",
      key: `out:${token}`,
      receipt_token_hashes: [receiptTokenHash(token)],
      ...(stored === "until" ? { receipt_tokens_until: new Date(at + RECEIPT_TOKEN_LIFETIME_MS) } : {}),
    });
    if (stored === "created only")
      await SmsMessage.collection.updateOne({ _id: message._id }, { $set: { created_at: new Date(at) } });
    return { id: message._id, token };
  }

  const delivered = (token: string) => ({ t: token, status: "1", answer: "id:1 stat:DELIVRD err:000" });
  const statusOf = async (id: unknown) => (await SmsMessage.findById(id).lean())?.delivery_status ?? null;

  it("takes a receipt within 72 hours of the send, and refuses one after (expired), writing nothing", async () => {
    const fresh = await sent(RECEIPT_TOKEN_LIFETIME_MS - 60_000);
    expect(await recordHttpReceipt(delivered(fresh.token))).toBe("recorded");
    expect(await statusOf(fresh.id)).toBe("DELIVRD");

    const old = await sent(RECEIPT_TOKEN_LIFETIME_MS + 60_000);
    expect(await recordHttpReceipt(delivered(old.token))).toBe("expired");
    expect(await statusOf(old.id)).toBeNull();
  });

  it("counts a record stored before tokens had a lifetime from its creation", async () => {
    const old = await sent(RECEIPT_TOKEN_LIFETIME_MS + 60_000, "created only");
    expect(await recordHttpReceipt(delivered(old.token))).toBe("expired");
    expect(await statusOf(old.id)).toBeNull();
    const recent = await sent(60_000, "created only");
    expect(await recordHttpReceipt(delivered(recent.token))).toBe("recorded");
  });
});
