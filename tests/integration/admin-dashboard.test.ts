import mongoose from "mongoose";
import { describe, expect, it } from "vitest";
import { Client, newUser } from "../support/client";
import { adminWithRole, setCoins, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

describe("admin/dashboard-data.php", () => {
  it("answers totals, 30-day usage by feature, top users and a daily series from the ledger", async () => {
    const admin = await superAdmin();
    const before = (await admin.get("/admin/dashboard-data.php")).body.stats;
    const { client, id, phone } = await newUser();
    await setCoins(id, 5_000_000, 4);
    expect((await client.post("/wallet/use.php", { featureType: "text", tokens: 1_000_000 })).status).toBe(200);
    expect((await client.post("/wallet/use.php", { featureType: "sms", tokens: 3 })).status).toBe(200);
    await mongoose.connection.db!.collection("images").insertOne({ userId: id, prompt: "x" });

    const res = await admin.get("/admin/dashboard-data.php");
    expect(res.status).toBe(200);
    const stats = res.body.stats;
    expect(stats.total_users).toBe(before.total_users + 1);
    expect(stats.active_users).toBe(before.active_users + 1);
    expect(stats.total_tokens_spent).toBe(before.total_tokens_spent + 1_000_003);
    expect(stats.total_images).toBe(before.total_images + 1);
    expect(typeof stats.total_sms).toBe("number");
    expect(typeof stats.total_conversations).toBe("number");

    const feature = (name: string, s: typeof stats) =>
      s.usage_by_feature.find((f: { feature_type: string }) => f.feature_type === name) ?? { count: 0, total_tokens: 0 };
    expect(feature("text", stats).total_tokens - feature("text", before).total_tokens).toBe(1_000_000);
    expect(feature("text", stats).count - feature("text", before).count).toBe(1);
    expect(feature("sms", stats).total_tokens - feature("sms", before).total_tokens).toBe(3);

    // The tier the subscriber sees: the balance reaches tier 10, above the floor of 4 set by the admin.
    expect(stats.top_users[0]).toMatchObject({ id, phone, coins: 3_999_997, total_spent: 1_000_003, tier: 10 });

    expect(stats.daily).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    const last = stats.daily[29];
    expect(last.date).toBe(today);
    const beforeToday = before.daily.find((d: { date: string }) => d.date === today) ?? { coins_spent: 0 };
    expect(last.coins_spent - beforeToday.coins_spent).toBe(1_000_003);
  });

  it("answers 401 without an admin session and lets every role read it", async () => {
    expect((await new Client().get("/admin/dashboard-data.php")).status).toBe(401);
    const { client } = await newUser();
    expect((await client.get("/admin/dashboard-data.php")).status).toBe(401);
    expect((await (await adminWithRole("support")).get("/admin/dashboard-data.php")).status).toBe(200);
  });
});
