import mongoose from "mongoose";
import { describe, expect, it } from "vitest";
import { Client, newUser } from "../support/client";
import { adminWithRole, setCoins, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

const utcDay = () => new Date().toISOString().slice(0, 10);

describe("admin/dashboard-data.php", () => {
  it("answers totals, 30-day usage by feature, top users and a daily series from the ledger", async () => {
    const admin = await superAdmin();
    const before = (await admin.get("/admin/dashboard-data.php")).body.stats;
    const { client, id, phone } = await newUser();
    await setCoins(id, 5_000_000, 4);
    // The UTC day(s) the spending falls on: a run across midnight spends on one or both.
    const spentOn = new Set([utcDay()]);
    expect((await client.post("/wallet/use.php", { featureType: "text", tokens: 1_000_000 })).status).toBe(200);
    expect((await client.post("/wallet/use.php", { featureType: "sms", tokens: 3 })).status).toBe(200);
    spentOn.add(utcDay());
    await mongoose.connection.db!.collection("images").insertOne({ userId: id, prompt: "x" });

    const res = await admin.get("/admin/dashboard-data.php");
    expect(res.status).toBe(200);
    const stats = res.body.stats;
    // Totals are global and other files add to them in parallel: ours must be in them.
    expect(stats.total_users).toBeGreaterThanOrEqual(before.total_users + 1);
    expect(stats.active_users).toBeGreaterThanOrEqual(before.active_users + 1);
    expect(stats.total_tokens_spent).toBeGreaterThanOrEqual(before.total_tokens_spent + 1_000_003);
    expect(stats.total_images).toBeGreaterThanOrEqual(before.total_images + 1);
    expect(typeof stats.total_sms).toBe("number");
    expect(typeof stats.total_conversations).toBe("number");

    const feature = (name: string, s: typeof stats) =>
      s.usage_by_feature.find((f: { feature_type: string }) => f.feature_type === name) ?? { count: 0, total_tokens: 0 };
    expect(feature("text", stats).total_tokens - feature("text", before).total_tokens).toBeGreaterThanOrEqual(1_000_000);
    expect(feature("text", stats).count - feature("text", before).count).toBeGreaterThanOrEqual(1);
    expect(feature("sms", stats).total_tokens - feature("sms", before).total_tokens).toBeGreaterThanOrEqual(3);

    // This user's own row is exact; the tier the subscriber sees: the balance reaches tier 10, above the admin's floor of 4.
    expect(stats.top_users.find((u: { id: string }) => u.id === id)).toMatchObject({
      id,
      phone,
      coins: 3_999_997,
      total_spent: 1_000_003,
      tier: 10,
    });

    expect(stats.daily).toHaveLength(30);
    expect([...spentOn, utcDay()]).toContain(stats.daily[29].date);
    const spentThen = (s: typeof stats) =>
      s.daily
        .filter((d: { date: string }) => spentOn.has(d.date))
        .reduce((sum: number, d: { coins_spent: number }) => sum + d.coins_spent, 0);
    expect(spentThen(stats) - spentThen(before)).toBeGreaterThanOrEqual(1_000_003);
  });

  it("answers 401 without an admin session and lets every role read it", async () => {
    expect((await new Client().get("/admin/dashboard-data.php")).status).toBe(401);
    const { client } = await newUser();
    expect((await client.get("/admin/dashboard-data.php")).status).toBe(401);
    expect((await (await adminWithRole("support")).get("/admin/dashboard-data.php")).status).toBe(200);
  });
});
