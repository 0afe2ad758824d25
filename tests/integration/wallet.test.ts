import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LedgerEntry, User, ledgerSum } from "@storefront/shared/server";
import { Client, giveCoins, newUser } from "../support/client";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri"));
});
afterAll(async () => {
  await mongoose.disconnect();
});

describe("wallet/get.php", () => {
  it("answers coins and tier information", async () => {
    const { client, id } = await newUser();
    const empty = await client.get("/wallet/get.php");
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      success: true,
      wallet: { coins: 0 },
      tierInfo: { currentTier: 1, currentTierName: "Bronze", nextTier: 2, nextTierName: "Silver", progressToNext: 0 },
    });
    await giveCoins(id, 750);
    const res = await client.get(`/wallet/get.php?userId=${id}`);
    expect(res.body.wallet.coins).toBe(750);
    expect(res.body.tierInfo).toMatchObject({ currentTier: 3, currentTierName: "Gold", nextTier: 4, progressToNext: 50 });
  });

  it("never shows a tier below the one an administrator set", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 10, 7);
    expect((await client.get("/wallet/get.php")).body.tierInfo.currentTier).toBe(7);
  });
});

describe("wallet/use.php", () => {
  it("debits the session user and answers 402 with the available coins when short", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 30);
    const ok = await client.post("/wallet/use.php", { featureType: "text", tokens: 12, details: "Text: hello" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, tokensUsed: 12, remainingCoins: 18 });
    const helperShape = await client.post("/wallet/use.php", { userId: id, feature: "image", tokens: 8 });
    expect(helperShape.body.remainingCoins).toBe(10);
    const short = await client.post("/wallet/use.php", { featureType: "image", tokens: 20 });
    expect(short.status).toBe(402);
    expect(short.body).toMatchObject({ success: false, error: "Insufficient coins", available: 10, needed: 20 });
    expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(10);
  });

  it("charges a retried request with the same Idempotency-Key once", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    const headers = { "Idempotency-Key": `retry-${id}` };
    const results = await Promise.all(
      [1, 2, 3].map(() => client.post("/wallet/use.php", { featureType: "text", tokens: 7 }, headers)),
    );
    for (const r of results) expect([200, 409]).toContain(r.status);
    const again = await client.post("/wallet/use.php", { featureType: "text", tokens: 7 }, headers);
    expect(again.status).toBe(200);
    expect(again.body.remainingCoins).toBe(93);
    expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(93);
    const conflicting = await client.post("/wallet/use.php", { featureType: "text", tokens: 8 }, headers);
    expect(conflicting.status).toBe(409);
  });

  it("lets exactly min(N, M) of N = 200 concurrent debits of 1 through over HTTP, and the ledger sums to the balance", async () => {
    const { client, id } = await newUser();
    const M = 150;
    await giveCoins(id, M);
    const results = await Promise.all(
      Array.from({ length: 200 }, () => client.post("/wallet/use.php", { featureType: "text", tokens: 1 })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(M);
    expect(statuses.filter((s) => s === 402)).toHaveLength(200 - M);
    const user = await User.findById(id).lean<{ coins: number }>();
    expect(user!.coins).toBe(0);
    expect(await ledgerSum(id)).toBe(0);
    expect(await LedgerEntry.countDocuments({ userId: id, kind: "debit" })).toBe(M);
  });

  it("rejects bad amounts and features with 400 naming the field and changes nothing", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 50);
    const cases: [unknown, string][] = [
      [{ featureType: "text", tokens: -5 }, "tokens"],
      [{ featureType: "text", tokens: 0 }, "tokens"],
      [{ featureType: "text", tokens: 1.5 }, "tokens"],
      [{ featureType: "text", tokens: "many" }, "tokens"],
      [{ featureType: "teleport", tokens: 1 }, "featureType"],
      [{ featureType: "text" }, "tokens"],
      [{ tokens: 1 }, "featureType"],
      [{ featureType: { $gt: "" }, tokens: 1 }, "featureType"],
    ];
    for (const [body, field] of cases) {
      const res = await client.post("/wallet/use.php", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(50);
  });

  it("answers 401 without a session", async () => {
    expect((await new Client().post("/wallet/use.php", { featureType: "text", tokens: 1 })).status).toBe(401);
  });
});
