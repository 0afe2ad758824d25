import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Admin, LedgerEntry, ledgerSum } from "@storefront/shared/server";
import { hashPassword } from "../../api/src/services/passwords";
import { adminClient, Client, newUser } from "../support/client";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri"));
});
afterAll(async () => {
  await mongoose.disconnect();
});

async function adminWithRole(role: "support" | "manager" | "admin"): Promise<Client> {
  const username = `${role}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  await Admin.create({ username, passwordHash: await hashPassword("role-password-123"), role });
  const client = new Client();
  const res = await client.post("/admin/login.php", { username, password: "role-password-123" });
  expect(res.status).toBe(200);
  expect(res.body.admin).toMatchObject({ username, role });
  return client;
}

describe("admin login", () => {
  it("logs the first super admin in from ADMIN_USERNAME / ADMIN_PASSWORD", async () => {
    const client = new Client();
    const res = await client.post("/admin/login.php", { username: inject("adminUsername"), password: inject("adminPassword") });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, admin: { username: inject("adminUsername"), role: "super_admin" } });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|argon2/u);
    expect((await client.get("/admin/session.php")).body.admin.role).toBe("super_admin");
  });

  it("answers 401 'Login failed' for wrong credentials and 400 for missing fields", async () => {
    const res = await new Client().post("/admin/login.php", { username: inject("adminUsername"), password: "wrong-password" });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("Login failed");
    const missing = await new Client().post("/admin/login.php", { username: "" });
    expect(missing.status).toBe(400);
  });

  it("keeps subscriber and admin sessions apart", async () => {
    const { client } = await newUser();
    expect((await client.get("/admin/session.php")).status).toBe(401);
    expect((await client.post("/admin/update-user-tier.php", { userId: "0".repeat(24), newCoins: 1, newTier: 1 })).status).toBe(
      401,
    );
  });
});

describe("admin/update-user-tier.php", () => {
  it("sets coins and tier through one ledger entry and answers the new values", async () => {
    const admin = await adminClient();
    const { client, id } = await newUser();
    const res = await admin.post("/admin/update-user-tier.php", { userId: id, newCoins: 1200, newTier: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, newTier: 5, newCoins: 1200 });
    const wallet = (await client.get("/wallet/get.php")).body;
    expect(wallet.wallet.coins).toBe(1200);
    expect(wallet.tierInfo.currentTier).toBe(5);
    await admin.post("/admin/update-user-tier.php", { userId: id, newCoins: "300", newTier: "5" });
    const entries = await LedgerEntry.find({ userId: id, kind: "admin_set" }).sort({ createdAt: 1 }).lean<{ amount: number }[]>();
    expect(entries.map((e) => e.amount)).toEqual([1200, -900]);
    expect(await ledgerSum(id)).toBe(300);
  });

  it("rejects negative coins, tier 11 and unknown users", async () => {
    const admin = await adminClient();
    const { id } = await newUser();
    const negative = await admin.post("/admin/update-user-tier.php", { userId: id, newCoins: -1, newTier: 1 });
    expect(negative.status).toBe(400);
    expect(negative.body.field).toBe("newCoins");
    const tier = await admin.post("/admin/update-user-tier.php", { userId: id, newCoins: 1, newTier: 11 });
    expect(tier.status).toBe(400);
    expect(tier.body.field).toBe("newTier");
    const unknown = await admin.post("/admin/update-user-tier.php", { userId: "a".repeat(24), newCoins: 1, newTier: 1 });
    expect(unknown.status).toBe(404);
  });

  it("answers 403 to roles without the right and 401 without an admin session", async () => {
    const { id } = await newUser();
    for (const role of ["support", "manager"] as const) {
      const client = await adminWithRole(role);
      const res = await client.post("/admin/update-user-tier.php", { userId: id, newCoins: 5, newTier: 2 });
      expect(res.status, role).toBe(403);
    }
    const allowed = await adminWithRole("admin");
    expect((await allowed.post("/admin/update-user-tier.php", { userId: id, newCoins: 5, newTier: 2 })).status).toBe(200);
    expect((await new Client().post("/admin/update-user-tier.php", { userId: id, newCoins: 5, newTier: 2 })).status).toBe(401);
  });
});
