import { describe, expect, inject, it } from "vitest";
import { AuditLog, LedgerEntry } from "@storefront/shared/server";
import { Client, newUser } from "../support/client";
import { connectSocket } from "../support/realtime";
import { adminWithRole, put, setCoins, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

describe("admin/users.php", () => {
  it("answers 401 without an admin session, also for a logged-in subscriber", async () => {
    expect((await new Client().get("/admin/users.php")).status).toBe(401);
    const { client } = await newUser();
    expect((await client.get("/admin/users.php")).status).toBe(401);
    expect((await put(client, "/admin/users.php", { userId: "0".repeat(24), isActive: false })).status).toBe(401);
  });

  it("lists users with coins, tier, active flag and usage summed per feature from the ledger", async () => {
    const admin = await superAdmin();
    const { client, id, phone } = await newUser();
    await setCoins(id, 500, 3);
    expect((await client.post("/wallet/use.php", { featureType: "text", tokens: 7, details: "t" })).status).toBe(200);
    expect((await client.post("/wallet/use.php", { featureType: "text", tokens: 5, details: "t" })).status).toBe(200);
    expect((await client.post("/wallet/use.php", { featureType: "image", tokens: 20, details: "i" })).status).toBe(200);

    const res = await admin.get(`/admin/users.php?search=${encodeURIComponent(phone.slice(1))}`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const row = res.body.users.find((u: { id: string }) => u.id === id);
    expect(row).toMatchObject({ id, phone, coins: 468, tier: 3, tier_floor: 3, is_active: true });
    expect(row.usage_stats).toEqual([
      { feature_type: "image", total_tokens: 20 },
      { feature_type: "text", total_tokens: 12 },
    ]);
    expect(res.body.total).toBeGreaterThanOrEqual(1);
  });

  it("pages the list and rejects a bad page size", async () => {
    const admin = await superAdmin();
    await newUser();
    await newUser();
    const page = await admin.get("/admin/users.php?limit=1&page=2");
    expect(page.status).toBe(200);
    expect(page.body.users).toHaveLength(1);
    expect(page.body.page).toBe(2);
    const bad = await admin.get("/admin/users.php?limit=5000");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/limit/u);
  });

  it("deactivates a user: live sessions and sockets stop working, login and spending are refused; reactivation restores them", async () => {
    const admin = await superAdmin();
    const { client, id, phone } = await newUser("pass-word-1");
    await setCoins(id, 100);
    expect((await client.get("/wallet/get.php")).status).toBe(200);
    const { socket } = await connectSocket(inject("baseUrl"), client);
    const closed = new Promise<string>((resolve) => socket.once("disconnect", resolve));

    const off = await put(admin, "/admin/users.php", { userId: id, isActive: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ success: true, isActive: false });
    // The server closed it (not the client, not the transport), and a new one is refused.
    expect(await closed).toBe("io server disconnect");
    await expect(connectSocket(inject("baseUrl"), client)).rejects.toThrow(/unauthorized/u);

    expect((await client.get("/wallet/get.php")).status).toBe(401);
    expect((await client.post("/wallet/use.php", { featureType: "text", tokens: 1 })).status).toBe(401);
    const again = new Client();
    const login = await again.post("/login-session-fix.php", { phone, password: "pass-word-1" });
    expect(login.status).toBe(403);
    expect(await LedgerEntry.countDocuments({ userId: id, kind: "debit" })).toBe(0);

    const list = await admin.get(`/admin/users.php?search=${encodeURIComponent(phone.slice(1))}`);
    expect(list.body.users[0].is_active).toBe(false);

    expect((await put(admin, "/admin/users.php", { userId: id, isActive: true })).status).toBe(200);
    expect((await again.post("/login-session-fix.php", { phone, password: "pass-word-1" })).status).toBe(200);
    expect((await again.post("/wallet/use.php", { featureType: "text", tokens: 1 })).status).toBe(200);

    const audit = await AuditLog.find({ action: "user.toggle", targetId: id }).sort({ createdAt: 1 }).lean();
    expect(audit.map((a) => [a.before, a.after])).toEqual([
      [
        { is_active: true, phone },
        { is_active: false, phone },
      ],
      [
        { is_active: false, phone },
        { is_active: true, phone },
      ],
    ]);
  });

  it("validates the toggle: bad ids 400, unknown users 404", async () => {
    const admin = await superAdmin();
    const bad = await put(admin, "/admin/users.php", { userId: "nope", isActive: false });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/userId/u);
    const noFlag = await put(admin, "/admin/users.php", { userId: "a".repeat(24) });
    expect(noFlag.status).toBe(400);
    expect(noFlag.body.error).toMatch(/isActive/u);
    expect((await put(admin, "/admin/users.php", { userId: "a".repeat(24), isActive: true })).status).toBe(404);
  });

  it("lets support view and toggle users but not edit coins and tier", async () => {
    const support = await adminWithRole("support");
    const { id } = await newUser();
    expect((await support.get("/admin/users.php")).status).toBe(200);
    expect((await put(support, "/admin/users.php", { userId: id, isActive: false })).status).toBe(200);
    const tier = await support.post("/admin/update-user-tier.php", { userId: id, newCoins: 10, newTier: 2 });
    expect(tier.status).toBe(403);
  });

  it("audits a coins and tier edit with the values before and after", async () => {
    const admin = await superAdmin();
    const { id } = await newUser();
    await setCoins(id, 40, 2);
    expect((await admin.post("/admin/update-user-tier.php", { userId: id, newCoins: 900, newTier: 6 })).status).toBe(200);
    const audit = await AuditLog.findOne({ action: "user.set_wallet", targetId: id }).sort({ createdAt: -1 }).lean();
    expect(audit).toMatchObject({ before: { coins: 40, tier: 2 }, after: { coins: 900, tier: 6 }, adminRole: "super_admin" });
  });

  it("shows the subscriber and the administrator the same tier (shownTier) after a tier edit", async () => {
    const admin = await superAdmin();
    const { client, id, phone } = await newUser();
    expect((await admin.post("/admin/update-user-tier.php", { userId: id, newCoins: 5000, newTier: 3 })).status).toBe(200);
    const seen = (await client.get("/wallet/get.php")).body.tierInfo.currentTier;
    const row = (await admin.get(`/admin/users.php?search=${encodeURIComponent(phone.slice(1))}`)).body.users[0];
    expect({ seen, listed: row.tier, floor: row.tier_floor }).toEqual({ seen: 6, listed: 6, floor: 3 });
  });

  it("rejects negative coins and tier 11 on the tier edit", async () => {
    const admin = await superAdmin();
    const { id } = await newUser();
    const negative = await admin.post("/admin/update-user-tier.php", { userId: id, newCoins: -5, newTier: 2 });
    expect(negative.status).toBe(400);
    expect(negative.body.error).toMatch(/newCoins/u);
    const eleven = await admin.post("/admin/update-user-tier.php", { userId: id, newCoins: 5, newTier: 11 });
    expect(eleven.status).toBe(400);
    expect(eleven.body.error).toMatch(/newTier/u);
  });
});
