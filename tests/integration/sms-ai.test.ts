import { describe, expect, it } from "vitest";
import { cleanMarkdown, smsEncoding } from "@storefront/shared";
import { LedgerEntry, SmsAiMessage, jobIdForHold } from "@storefront/shared/server";
import { useQueue } from "../support/queues";
import { Client, giveCoins, newUser, walletCoins } from "../support/client";

const chatQueue = useQueue("chat");

/** A GSM-7 text of exactly `length` characters. */
function gsmText(length: number): string {
  return "How far is it from Paris to Lyon by car please ".repeat(20).slice(0, length);
}

describe("sms/ai-response.php", () => {
  it("answers in the HTTP reply, charged once per segment of the sent message, with the last 10 messages as context", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    const message = gsmText(200);
    expect(smsEncoding(message).segments).toBe(2);
    const history = Array.from({ length: 14 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i}` }));
    const res = await client.post("/sms/ai-response.php", { message, conversationHistory: history, language: "en" });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(typeof res.body.response).toBe("string");
    expect(res.body.response.length).toBeGreaterThan(0);
    expect(Array.from(res.body.response as string).length).toBeLessThanOrEqual(400);
    expect(cleanMarkdown(res.body.response)).toBe(res.body.response);
    expect(res.body.tokensUsed).toBe(2);
    expect(await walletCoins(client)).toBe(98);

    const hold = await LedgerEntry.findOne({ jobId: res.body.jobId, kind: "hold" }).lean();
    expect(hold).toMatchObject({ amount: -2, feature: "sms", holdState: "settled" });
    const job = await chatQueue().getJob(res.body.jobId);
    expect(job?.name).toBe("sms");
    expect(job?.data).toMatchObject({ channel: "sms", persona: "general", language: "en", message });
    expect(job?.data.history).toHaveLength(10);
    expect(job?.data.history[9]).toEqual({ role: "assistant", content: "turn 13" });
  });

  it("counts Arabic (UCS-2) segments and keeps the reply within the Arabic SMS limit", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 20);
    const message = "كم تبعد القاهرة عن الإسكندرية بالسيارة؟ ".repeat(3).trim();
    const segments = smsEncoding(message).segments;
    expect(segments).toBe(2);
    const res = await client.post("/sms/ai-response.php", { message, language: "ar" });
    expect(res.status).toBe(200);
    expect(res.body.tokensUsed).toBe(segments);
    expect(Array.from(res.body.response as string).length).toBeLessThanOrEqual(210);
    expect(await walletCoins(client)).toBe(20 - segments);
  });

  it("charges a retried request with the same Idempotency-Key once and stores the exchange once", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 10);
    const headers = { "Idempotency-Key": `sms-ai-retry-${id}` };
    const first = await client.post("/sms/ai-response.php", { message: "hello", language: "en" }, headers);
    const again = await client.post("/sms/ai-response.php", { message: "hello", language: "en" }, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.jobId).toBe(first.body.jobId);
    expect(again.body.response).toBe(first.body.response);
    expect(await walletCoins(client)).toBe(9);
    expect(await SmsAiMessage.countDocuments({ userId: id })).toBe(2);
  });

  it("answers 402 Insufficient coins with needed and available, adds no job, charges nothing and stores nothing", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 1);
    const key = `sms-short-${id}`;
    const res = await client.post("/sms/ai-response.php", { message: gsmText(170), language: "en" }, { "Idempotency-Key": key });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ success: false, error: "Insufficient coins", needed: 2, available: 1 });
    expect(await walletCoins(client)).toBe(1);
    expect(await chatQueue().getJob(jobIdForHold("chat", `job:chat:${id}:${key}`))).toBeUndefined();
    expect(await LedgerEntry.countDocuments({ userId: id, kind: "hold" })).toBe(0);
    expect(await SmsAiMessage.countDocuments({ userId: id })).toBe(0);
  });

  it("refuses a call without a session and a userId that is not the caller's", async () => {
    const anonymous = new Client();
    expect((await anonymous.post("/sms/ai-response.php", { message: "hi" })).status).toBe(401);
    const { client } = await newUser();
    const other = await newUser();
    const res = await client.post("/sms/ai-response.php", { message: "hi", userId: other.id });
    expect(res.status).toBe(403);
  });

  it("answers 400 naming the field for bad input", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    const cases: [unknown, string][] = [
      [{}, "message"],
      [{ message: "   " }, "message"],
      [{ message: "a".repeat(401), language: "en" }, "message"],
      [{ message: "ب".repeat(211), language: "ar" }, "message"],
      [{ message: "hi", language: "fr" }, "language"],
      [{ message: "hi", conversationHistory: "nope" }, "conversationHistory"],
      [{ message: "hi", conversationHistory: [{ role: "system", content: "x" }] }, "conversationHistory.0.role"],
      [{ message: "hi", sender: "x".repeat(40) }, "sender"],
    ];
    for (const [body, field] of cases) {
      const res = await client.post("/sms/ai-response.php", body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toMatchObject({ success: false, field });
      expect(res.body.error).toContain(field);
    }
    expect(await walletCoins(client)).toBe(100);
  });
});

describe("sms/conversations.php", () => {
  it("lists the caller's exchanges with role, message, timestamp, sender and recipient, and no one else can read them", async () => {
    const { client, id, phone } = await newUser();
    await giveCoins(id, 10);
    const first = await client.post("/sms/ai-response.php", { message: "hi there", language: "en" });
    const second = await client.post("/sms/ai-response.php", {
      message: "what time is it?",
      language: "en",
      sender: "MyShop",
      recipient: "+15550001111",
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);

    const res = await client.get(`/sms/conversations.php?userId=${id}`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const messages = res.body.messages as Record<string, string>[];
    expect(messages.map((m) => [m.role, m.message])).toEqual([
      ["user", "hi there"],
      ["assistant", first.body.response],
      ["user", "what time is it?"],
      ["assistant", second.body.response],
    ]);
    expect(messages[0]).toMatchObject({ sender: phone, recipient: "AI" });
    expect(messages[1]).toMatchObject({ sender: "AI", recipient: phone });
    expect(messages[2]).toMatchObject({ sender: "MyShop", recipient: "+15550001111" });
    expect(messages[3]).toMatchObject({ sender: "+15550001111", recipient: "MyShop" });
    for (const m of messages) expect(new Date(m.timestamp!).toISOString()).toBe(m.timestamp);
    expect(res.body.conversations).toHaveLength(2);
    expect(res.body.conversations[0]).toMatchObject({
      sender: "MyShop",
      recipient: "+15550001111",
      lastMessage: second.body.response,
    });

    const limited = await client.get("/sms/conversations.php?limit=1");
    expect(limited.body.messages).toHaveLength(1);
    expect(limited.body.messages[0].message).toBe(second.body.response);

    const stranger = await newUser();
    expect((await stranger.client.get(`/sms/conversations.php?userId=${id}`)).status).toBe(403);
    const own = await stranger.client.get("/sms/conversations.php");
    expect(own.status).toBe(200);
    expect(own.body.messages).toEqual([]);
    expect((await new Client().get(`/sms/conversations.php?userId=${id}`)).status).toBe(401);

    const bad = await client.get("/sms/conversations.php?limit=abc");
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("limit");
  });
});

describe("sms/learned-response.php", () => {
  it("returns the earlier AI answer for the same normalised message and language, to its owner only, for free", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 10);
    const asked = await client.post("/sms/ai-response.php", { message: "What is 2 + 2?", language: "en" });
    expect(asked.status).toBe(200);
    const before = await walletCoins(client);

    const hit = await client.post("/sms/learned-response.php", { message: "  what is 2+2 ", language: "en", userId: id });
    expect(hit.status).toBe(200);
    expect(hit.body).toEqual({ success: true, response: asked.body.response, found: true });
    expect(await walletCoins(client)).toBe(before);

    const otherLanguage = await client.post("/sms/learned-response.php", { message: "What is 2 + 2?", language: "ar" });
    expect(otherLanguage.body).toEqual({ success: true, response: null, found: false });
    const otherMessage = await client.post("/sms/learned-response.php", { message: "What is 3 + 3?", language: "en" });
    expect(otherMessage.body.found).toBe(false);

    const stranger = await newUser();
    const theirs = await stranger.client.post("/sms/learned-response.php", { message: "What is 2 + 2?", language: "en" });
    expect(theirs.body).toEqual({ success: true, response: null, found: false });
    expect((await stranger.client.post("/sms/learned-response.php", { message: "What is 2 + 2?", userId: id })).status).toBe(403);

    const missing = await client.post("/sms/learned-response.php", { language: "en" });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe("message");
  });
});
