/**
 * The subscriber's spending limits and the cost of each conversation, on the running stack:
 * wallet/settings.php, the daily cap refusing charges atomically (402 daily_cap_reached), the
 * per-user low-balance threshold, and `coinsSpent` of conversations from the ledger.
 */
import { describe, expect, inject, it } from "vitest";
import { giveCoins, newUser, walletCoins, type Client } from "../support/client";
import { connectSocket, until } from "../support/realtime";

const baseUrl = inject("baseUrl");
const SETTINGS = "/wallet/settings.php";
const use = (client: Client, tokens: number) => client.post("/wallet/use.php", { featureType: "text", tokens });
const putSettings = (client: Client, body: unknown) => client.request("PUT", SETTINGS, body);

describe("wallet/settings.php", () => {
  it("answers the defaults: no cap, the configured threshold, nothing spent, and the next UTC midnight", async () => {
    const { client } = await newUser();
    const res = await client.get(SETTINGS);
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({ dailyCap: null, lowBalanceThreshold: null, smsAlerts: false });
    expect(res.body.effective).toMatchObject({ dailyCap: null, dailyCapSource: "none", lowBalanceThreshold: 50, spentToday: 0 });
    const resets = new Date(res.body.effective.resetsAt);
    expect(resets.getUTCHours()).toBe(0);
    expect(resets.getTime() - Date.now()).toBeGreaterThan(0);
    expect(resets.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    expect((await new (client.constructor as typeof Client)(baseUrl).get(SETTINGS)).status).toBe(401);
  });

  it("refuses bad settings with 400 naming the field, and changes nothing", async () => {
    const { client } = await newUser();
    const cases: [unknown, RegExp][] = [
      [{ dailyCap: 0 }, /dailyCap/u],
      [{ dailyCap: 1.5 }, /dailyCap/u],
      [{ dailyCap: "lots" }, /dailyCap/u],
      [{ dailyCap: 1_000_001 }, /dailyCap/u],
      [{ lowBalanceThreshold: -1 }, /lowBalanceThreshold/u],
      [{ lowBalanceThreshold: [] }, /lowBalanceThreshold/u],
      [{}, /dailyCap, lowBalanceThreshold or smsAlerts/u],
      [{ smsAlerts: "yes" }, /smsAlerts/u],
      [{ smsAlerts: 1 }, /smsAlerts/u],
      [{ dailyCap: 5, coins: 1_000 }, /coins/u],
      ["cap", /body/u],
    ];
    for (const [body, field] of cases) {
      const res = await putSettings(client, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(field);
    }
    expect((await client.get(SETTINGS)).body.settings).toEqual({ dailyCap: null, lowBalanceThreshold: null, smsAlerts: false });
  });

  it("limits how often one user changes them (429 with Retry-After)", async () => {
    const { client } = await newUser();
    const answers = [];
    for (let i = 0; i < 61; i++) answers.push(await putSettings(client, { dailyCap: 100 + i }));
    expect(answers.slice(0, 60).every((a) => a.status === 200)).toBe(true);
    expect(answers[60]!.status).toBe(429);
    expect(Number(answers[60]!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await client.get(SETTINGS)).body.settings.dailyCap).toBe(159);
  });

  it("enforces the cap on charges: 402 daily_cap_reached naming it, nothing debited, up to exactly the cap", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 1000);
    const saved = await putSettings(client, { dailyCap: 100 });
    expect(saved.status).toBe(200);
    expect(saved.body.effective).toMatchObject({ dailyCap: 100, dailyCapSource: "user", spentToday: 0 });

    expect((await use(client, 60)).status).toBe(200);
    const refused = await use(client, 50);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ success: false, code: "daily_cap_reached", cap: 100, spent: 60, needed: 50 });
    expect(await walletCoins(client)).toBe(940);
    expect((await use(client, 40)).status).toBe(200);
    expect((await use(client, 1)).body.code).toBe("daily_cap_reached");
    expect((await client.get(SETTINGS)).body.effective.spentToday).toBe(100);

    // Raising the cap applies to the next charge; clearing it removes it.
    expect((await putSettings(client, { dailyCap: 110 })).status).toBe(200);
    expect((await use(client, 10)).status).toBe(200);
    expect((await use(client, 1)).status).toBe(402);
    expect((await putSettings(client, { dailyCap: null })).body.effective).toMatchObject({ dailyCap: null, spentToday: 110 });
    expect((await use(client, 1)).status).toBe(200);
    expect(await walletCoins(client)).toBe(889);
  });

  it("lets no two concurrent calls pass the cap together", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 1000);
    await putSettings(client, { dailyCap: 50 });
    const answers = await Promise.all(Array.from({ length: 30 }, () => use(client, 3)));
    const passed = answers.filter((a) => a.status === 200).length;
    expect(passed).toBe(16); // 16 × 3 = 48 ≤ 50 < 51
    expect(answers.filter((a) => a.status === 402).every((a) => a.body.code === "daily_cap_reached")).toBe(true);
    expect(await walletCoins(client)).toBe(1000 - 48);
    expect((await client.get(SETTINGS)).body.effective.spentToday).toBe(48);
  });

  it("refuses a queued job past the cap before anything is held or queued", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 500);
    await putSettings(client, { dailyCap: 3 });
    const res = await client.post("/textai/chat.php", { message: "Tell me a long story about a brave little robot" });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: "daily_cap_reached", cap: 3, spent: 0 });
    expect(await walletCoins(client)).toBe(500);
  });

  it("uses the user's own low-balance threshold, and 0 turns the notice off", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 300);
    expect((await putSettings(client, { lowBalanceThreshold: 200 })).body.effective.lowBalanceThreshold).toBe(200);
    const { socket, received } = await connectSocket(baseUrl, client);
    const lows = () => received.filter((p) => p.event === "wallet:low");
    try {
      expect((await use(client, 50)).status).toBe(200); // 250
      expect((await use(client, 60)).status).toBe(200); // 190: below 200
      await until(() => lows().length === 1 || undefined, 5_000, "the notice");
      expect(lows()[0]!.payload).toEqual({ coins: 190, threshold: 200 });
      expect((await putSettings(client, { lowBalanceThreshold: 0 })).status).toBe(200);
      expect((await use(client, 150)).status).toBe(200); // 40: below any default, but the notice is off
      await until(() => received.filter((p) => p.event === "wallet:updated").length >= 3 || undefined, 5_000, "updates");
      expect(lows()).toHaveLength(1);
    } finally {
      socket.close();
    }
  });
});

describe("cost per conversation", () => {
  it("shows each conversation's coins from the ledger, the first message's charge filed when the thread is saved", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 500);
    const first = await client.post("/textai/chat.php", { message: "What is bread made of?", conversationId: null });
    expect(first.status).toBe(200);
    const messages = [
      { type: "user", content: "What is bread made of?" },
      { type: "ai", content: first.body.message },
    ];
    const saved = await client.post("/conversations/save.php", { conversationId: "new", messages, jobIds: [first.body.jobId] });
    expect(saved.status).toBe(200);
    const conversationId: string = saved.body.conversationId;
    expect(saved.body.conversation.coinsSpent).toBe(first.body.tokensUsed);

    const second = await client.post("/textai/chat.php", { message: "And without yeast?", conversationId });
    expect(second.status).toBe(200);
    const list = await client.get("/conversations/list.php?kind=text");
    const entry = list.body.conversations.find((c: { id: string }) => c.id === conversationId);
    expect(entry.coinsSpent).toBe(first.body.tokensUsed + second.body.tokensUsed);
    const loaded = await client.get(`/conversations/load.php?conversationId=${conversationId}`);
    expect(loaded.body.conversation.coinsSpent).toBe(entry.coinsSpent);

    // Another user cannot file these charges under a conversation of theirs.
    const other = await newUser();
    const theirs = await other.client.post("/conversations/save.php", {
      conversationId: "new",
      messages,
      jobIds: [first.body.jobId, second.body.jobId],
    });
    expect(theirs.body.conversation.coinsSpent).toBe(0);
    expect((await client.get(`/conversations/load.php?conversationId=${conversationId}`)).body.conversation.coinsSpent).toBe(
      entry.coinsSpent,
    );
    expect(
      (await client.post("/conversations/save.php", { conversationId: "new", messages, jobIds: ["not a job!"] })).status,
    ).toBe(400);
  });
});
