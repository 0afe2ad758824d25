/**
 * The per-process caches (shared/src/server/cache-bus.ts) across two API processes: the wallet
 * tables and a user's active flag are served from memory, and a change made through one process
 * is seen by the very next call on the other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { User, WalletConfig } from "@storefront/shared/server";
import { startApiProcess, type ApiProcess } from "../support/api-process";
import { Client, giveCoins, newUser } from "../support/client";
import { put, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

let second: ApiProcess;

beforeAll(async () => {
  // Same session secret as the run's own API, so one login works on both processes.
  second = await startApiProcess({ SESSION_SECRET: "test-session-secret-0123456789" });
}, 120_000);

afterAll(async () => {
  await second?.stop();
});

/** The same signed-in user, talking to the second API process. */
const onSecond = (client: Client) => new Client(second.url).shareCookies(client);

describe("per-process caches kept true through Redis", () => {
  it("shows a tier table saved on one process on the next call to the other, and serves it from memory until then", async () => {
    const user = await newUser("cache-pass-1");
    await giveCoins(user.id, 5000, 10);
    const remote = onSecond(user.client);
    const nameOnSecond = async () => (await remote.get("/wallet/get.php")).body.tierInfo.currentTierName as string;
    const original = await nameOnSecond();

    // A write that bypasses the bus is not seen: the second process answers from its cache.
    await WalletConfig.updateOne({ _id: "wallet", "tiers.tier_number": 10 }, { $set: { "tiers.$.tier_name": "Bypassed" } });
    expect(await nameOnSecond()).toBe(original);

    const admin = await superAdmin();
    const tables = (await admin.get("/admin/wallet-config.php")).body;
    const renamed = tables.tiers.map((t: { tier_number: number; tier_name: string }) =>
      t.tier_number === 10 ? { ...t, tier_name: "Cache Check" } : t,
    );
    try {
      expect((await put(admin, "/admin/wallet-config.php", { pricing: tables.pricing, tiers: renamed })).status).toBe(200);
      expect(await nameOnSecond()).toBe("Cache Check");
    } finally {
      const restored = tables.tiers.map((t: { tier_number: number; tier_name: string }) =>
        t.tier_number === 10 ? { ...t, tier_name: original } : t,
      );
      await put(admin, "/admin/wallet-config.php", { pricing: tables.pricing, tiers: restored });
    }
    expect(await nameOnSecond()).toBe(original);
  });

  it("stops a deactivated user's next call on the other process, and lets them back in when reactivated", async () => {
    const user = await newUser("cache-pass-2");
    const remote = onSecond(user.client);
    expect((await remote.get("/wallet/get.php")).status).toBe(200);
    const admin = await superAdmin();

    expect((await put(admin, "/admin/users.php", { userId: user.id, isActive: false })).status).toBe(200);
    const refused = await remote.get("/wallet/get.php");
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("account_inactive");

    expect((await put(admin, "/admin/users.php", { userId: user.id, isActive: true })).status).toBe(200);
    // Signed in again (through the run's own API, whose login limits the suites share), and served on the other.
    const back = new Client();
    expect((await back.post("/login-session-fix.php", { phone: user.phone, password: "cache-pass-2" })).status).toBe(200);
    expect((await onSecond(back).get("/wallet/get.php")).status).toBe(200);
    expect(await User.exists({ _id: user.id, isActive: true })).toBeTruthy();
  });
});
