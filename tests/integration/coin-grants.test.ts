/** Hole 2: only roles holding coins:grant add coins, packages have a ceiling, re-assigning does not credit twice. */
import { describe, expect, it } from "vitest";
import { PACKAGE_MAX } from "@storefront/shared";
import { AuditLog, ledgerSum } from "@storefront/shared/server";
import { Client, newUser, walletCoins } from "../support/client";
import { adminWithRole, del, put, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

const PACKAGES = "/admin/wallet-packages-simple.php";
const ASSIGN = "/admin/user-packages.php";

async function createPackage(admin: Client, fields: Record<string, unknown> = {}) {
  const res = await admin.post(PACKAGES, {
    name: `Grant ${Math.random().toString(36).slice(2, 8)}`,
    coins: 5,
    price: 1,
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.package as { id: string; coins: number };
}

describe("coin grants need coins:grant", () => {
  it("support and manager cannot assign a package or set a balance; admin can", async () => {
    const pkg = await createPackage(await superAdmin(), { coins: 300 });
    const { id } = await newUser();
    for (const role of ["support", "manager"] as const) {
      const client = await adminWithRole(role);
      expect((await client.post(ASSIGN, { userId: id, packageId: pkg.id })).status, role).toBe(403);
      expect((await client.post("/admin/update-user-tier.php", { userId: id, newCoins: 300, newTier: 1 })).status, role).toBe(
        403,
      );
    }
    expect(await ledgerSum(id)).toBe(0);
    const admin = await adminWithRole("admin");
    const res = await admin.post(ASSIGN, { userId: id, packageId: pkg.id });
    expect(res.status).toBe(200);
    expect(res.body.coinsAdded).toBe(300);
    expect(await ledgerSum(id)).toBe(300);
  });

  it("support still views and removes assignments", async () => {
    const admin = await superAdmin();
    const pkg = await createPackage(admin);
    const { id } = await newUser();
    const assigned = await admin.post(ASSIGN, { userId: id, packageId: pkg.id });
    const support = await adminWithRole("support");
    expect((await support.get(`${ASSIGN}?userId=${id}`)).status).toBe(200);
    expect((await del(support, `${ASSIGN}?id=${assigned.body.assignment.id}`)).status).toBe(200);
  });
});

describe("package ceilings", () => {
  it("refuses a package above the coin or price ceiling, on create and update, naming the field", async () => {
    const manager = await adminWithRole("manager");
    const huge = await manager.post(PACKAGES, { name: "Mint", coins: 2_000_000_000 });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatch(/^coins/u);
    const over = await manager.post(PACKAGES, { name: "Mint", coins: PACKAGE_MAX.coins + 1 });
    expect(over.status).toBe(400);
    const pricey = await manager.post(PACKAGES, { name: "Dear", price: PACKAGE_MAX.price + 1 });
    expect(pricey.status).toBe(400);
    expect(pricey.body.error).toMatch(/^price/u);
    // Off sale: whether a package on sale gives more for the money is a separate rule (value-paths.test.ts).
    const atMax = await manager.post(PACKAGES, {
      name: "Max",
      coins: PACKAGE_MAX.coins,
      price: PACKAGE_MAX.price,
      status: "inactive",
    });
    expect(atMax.status).toBe(201);
    const raised = await put(manager, PACKAGES, { id: atMax.body.package.id, name: "Max", coins: PACKAGE_MAX.coins * 10 });
    expect(raised.status).toBe(400);
    expect(raised.body.error).toMatch(/^coins/u);
  });
});

describe("removing and re-assigning a package", () => {
  it("does not credit again within the period; the audit log shows each credit and who made it", async () => {
    const admin = await superAdmin();
    const pkg = await createPackage(admin, { coins: 5, subscription_type: "monthly" });
    const { client, id } = await newUser();
    const first = await admin.post(ASSIGN, { userId: id, packageId: pkg.id });
    expect(first.body.coinsAdded).toBe(5);
    let assignmentId = first.body.assignment.id as string;
    for (let i = 0; i < 3; i += 1) {
      expect((await del(admin, `${ASSIGN}?id=${assignmentId}`)).status).toBe(200);
      const again = await admin.post(ASSIGN, { userId: id, packageId: pkg.id });
      expect(again.status).toBe(200);
      expect(again.body.coinsAdded).toBe(0);
      expect(again.body.assignment).toMatchObject({ is_active: true, expires_at: first.body.assignment.expires_at });
      assignmentId = again.body.assignment.id;
    }
    expect(await walletCoins(client)).toBe(5);
    expect(await ledgerSum(id)).toBe(5);
    // Still only one active copy.
    expect((await admin.post(ASSIGN, { userId: id, packageId: pkg.id })).status).toBe(409);

    const credits = await AuditLog.find({ targetType: "assignment", "after.user_id": id }).sort({ createdAt: 1 }).lean();
    const granted = credits.filter((e) => e.action === "assignment.create" || e.action === "assignment.resume");
    expect(granted.map((e) => [e.action, (e.after as { coins_credited: number }).coins_credited])).toEqual([
      ["assignment.create", 5],
      ["assignment.resume", 0],
      ["assignment.resume", 0],
      ["assignment.resume", 0],
    ]);
    expect(granted.every((e) => e.adminUsername && e.adminId)).toBe(true);
  });

  it("a package removed after its period ended is a new assignment and credits again", async () => {
    const admin = await superAdmin();
    const pkg = await createPackage(admin, { coins: 7, subscription_type: "daily" });
    const { id } = await newUser();
    const soon = new Date(Date.now() + 3000).toISOString();
    const first = await admin.post(ASSIGN, { userId: id, packageId: pkg.id, expiresAt: soon, autoRenew: false });
    expect(first.status).toBe(200);
    expect((await del(admin, `${ASSIGN}?id=${first.body.assignment.id}`)).status).toBe(200);
    await expect.poll(() => Date.now() > Date.parse(soon), { timeout: 10_000 }).toBe(true);
    const again = await admin.post(ASSIGN, { userId: id, packageId: pkg.id });
    expect(again.body.coinsAdded).toBe(7);
    expect(await ledgerSum(id)).toBe(14);
  });
});
