import { describe, expect, it } from "vitest";
import { DEFAULT_PRICING, DEFAULT_TIERS } from "@storefront/shared";
import { AuditLog, WalletConfig } from "@storefront/shared/server";
import { Client, newUser } from "../support/client";
import { adminWithRole, put, setCoins, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

const CONFIG = "/admin/wallet-config.php";
const pricing = () => DEFAULT_PRICING.map((r) => ({ ...r }));
const tiers = () => DEFAULT_TIERS.map((r) => ({ ...r }));

describe("admin/wallet-config.php", () => {
  it("answers the pricing and tier tables", async () => {
    const admin = await superAdmin();
    const res = await admin.get(CONFIG);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.pricing.map((r: { feature_type: string }) => r.feature_type)).toContain("image");
    expect(res.body.tiers).toHaveLength(10);
  });

  it("rejects bad tables with 400 naming the field and keeps the stored config", async () => {
    const admin = await superAdmin();
    const before = await WalletConfig.findById("wallet").lean();
    const overlapping = tiers();
    overlapping[1]!.min_coins = 50;
    const cases: [unknown, RegExp][] = [
      [{ pricing: [{ feature_type: "text", tokens_per_unit: 0 }], tiers: tiers() }, /pricing\.0\.tokens_per_unit/u],
      [{ pricing: [{ feature_type: "text", tokens_per_unit: 1.5 }], tiers: tiers() }, /tokens_per_unit/u],
      [{ pricing: [{ feature_type: "teleport", tokens_per_unit: 1 }], tiers: tiers() }, /feature_type/u],
      [{ pricing: pricing(), tiers: [{ ...tiers()[0]!, min_coins: -1 }] }, /tiers\.0\.min_coins/u],
      [{ pricing: pricing(), tiers: [{ ...tiers()[0]!, text_tokens: 0 }] }, /tiers\.0\.text_tokens/u],
      [{ pricing: pricing(), tiers: [{ ...tiers()[0]!, tier_number: 11 }] }, /tier_number/u],
      [{ pricing: pricing(), tiers: [...tiers(), { ...tiers()[0]!, tier_number: 10 }] }, /tiers/u],
      [{ pricing: pricing(), tiers: overlapping }, /overlapping/u],
      [{ pricing: pricing(), tiers: [] }, /tiers/u],
      [{ pricing: pricing() }, /tiers/u],
      [{ pricing: "many", tiers: tiers() }, /pricing/u],
    ];
    for (const [body, field] of cases) {
      const res = await put(admin, CONFIG, body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body.error).toMatch(field);
    }
    const after = await WalletConfig.findById("wallet").lean();
    expect(after?.pricing).toEqual(before?.pricing);
    expect(after?.tiers).toEqual(before?.tiers);
  });

  it("applies a saved table at once: the next wallet read uses the new tiers, and the change is audited", async () => {
    const admin = await superAdmin();
    const { client, id } = await newUser();
    await setCoins(id, 150);
    expect((await client.get("/wallet/get.php")).body.tierInfo.currentTier).toBe(2);
    const changed = tiers();
    changed[1]!.min_coins = 200;
    changed[0]!.max_coins = 199;
    changed[0]!.tier_name = "Starter";
    const res = await put(admin, CONFIG, {
      pricing: pricing(),
      tiers: changed.map((t) => ({ ...t, text_tokens: String(t.text_tokens) })),
    });
    expect(res.status).toBe(200);
    try {
      const wallet = (await client.get("/wallet/get.php")).body.tierInfo;
      expect(wallet.currentTier).toBe(1);
      expect(wallet.currentTierName).toBe("Starter");
      expect((await admin.get(CONFIG)).body.tiers[0].tier_name).toBe("Starter");
      const audit = await AuditLog.findOne({ action: "wallet_config.update" }).sort({ createdAt: -1 }).lean();
      expect(audit).not.toBeNull();
      expect((audit!.after as { tiers: { tier_name: string }[] }).tiers[0]!.tier_name).toBe("Starter");
    } finally {
      expect((await put(admin, CONFIG, { pricing: pricing(), tiers: tiers() })).status).toBe(200);
    }
  });

  it("applies a tier's default daily cap to its users who set none, and a user's own cap over it", async () => {
    const admin = await superAdmin();
    const { client, id } = await newUser();
    // Tier 10 by the administrator's floor: no other suite's users reach it, so the default touches nobody else.
    await setCoins(id, 1_000_010, 10);
    const changed = tiers();
    changed[9]!.daily_cap = 1_000_000;
    expect((await put(admin, CONFIG, { pricing: pricing(), tiers: changed })).status).toBe(200);
    try {
      expect((await admin.get(CONFIG)).body.tiers[9].daily_cap).toBe(1_000_000);
      const settings = await client.get("/wallet/settings.php");
      expect(settings.body.effective).toMatchObject({ dailyCap: 1_000_000, dailyCapSource: "tier" });
      expect((await client.post("/wallet/use.php", { featureType: "text", tokens: 1_000_000 })).status).toBe(200);
      const refused = await client.post("/wallet/use.php", { featureType: "text", tokens: 1 });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ code: "daily_cap_reached", cap: 1_000_000, spent: 1_000_000 });
      // The user's own cap wins over the tier's.
      const own = await client.request("PUT", "/wallet/settings.php", { dailyCap: 5 });
      expect(own.body.effective).toMatchObject({ dailyCap: 5, dailyCapSource: "user" });
      expect((await client.post("/wallet/use.php", { featureType: "text", tokens: 1 })).body).toMatchObject({ cap: 5 });
      const bad = await put(admin, CONFIG, { pricing: pricing(), tiers: changed.map((t) => ({ ...t, daily_cap: 0 })) });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/daily_cap/u);
    } finally {
      expect((await put(admin, CONFIG, { pricing: pricing(), tiers: tiers() })).status).toBe(200);
    }
  });

  it("lets a manager read but not save the config; support neither", async () => {
    const manager = await adminWithRole("manager");
    expect((await manager.get(CONFIG)).status).toBe(200);
    expect((await put(manager, CONFIG, { pricing: pricing(), tiers: tiers() })).status).toBe(403);
    const support = await adminWithRole("support");
    expect((await support.get(CONFIG)).status).toBe(403);
    expect((await new Client().get(CONFIG)).status).toBe(401);
  });
});

describe("admin/audit-log.php", () => {
  it("shows who changed what, before and after, newest first, to super admins only", async () => {
    const admin = await superAdmin();
    const created = await admin.post("/admin/wallet-packages-simple.php", { name: "Audited", coins: 10 });
    const res = await admin.get("/admin/audit-log.php?action=package.create&limit=5");
    expect(res.status).toBe(200);
    const entry = res.body.logs.find((l: { target_id: string }) => l.target_id === created.body.package.id);
    expect(entry).toMatchObject({
      action: "package.create",
      target_type: "package",
      before: null,
      after: { name: "Audited", coins: 10 },
      admin: { role: "super_admin" },
    });
    expect(Date.parse(entry.created_at)).toBeGreaterThan(Date.now() - 60_000);
    for (const role of ["admin", "manager", "support"] as const) {
      expect((await (await adminWithRole(role)).get("/admin/audit-log.php")).status).toBe(403);
    }
    expect((await new Client().get("/admin/audit-log.php")).status).toBe(401);
  });
});
