/**
 * Every administrator call that can change coins, prices or packages, tried as each role: a role
 * without coins:grant never increases what a subscriber can get for a given price, and a price
 * below the currency's smallest unit is refused for everyone (issue 31, item 1). The calls come
 * from the route table, so a new one that is not walked here fails the first test.
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ADMIN_ROLES, UNPAID_VALUE, VALUE_PERMISSION, roleAllows, type AdminRole, type UnpaidValue } from "@storefront/shared";
import {
  AuditLog,
  PackageAssignmentModel,
  RedemptionBatch,
  User,
  WalletPackageModel,
  ledgerSum,
} from "@storefront/shared/server";
import { API_ROUTES } from "../../api/src/routes/index";
import { grantsOf, permissionsOf, type Route } from "../../api/src/routes/define";
import { BULL_BOARD_PATH } from "../../api/src/routes/admin/queues";
import { Client, newUser, provenInDatabase } from "../support/client";
import { adminWithRole, del, put, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

const PACKAGES = "/admin/wallet-packages-simple.php";

/** Permissions whose calls can change what subscribers hold or pay. */
const TOUCHES_VALUE = new Set([
  "packages:manage",
  "packages:assign",
  "coins:grant",
  "users:edit_wallet",
  "wallet_config:edit",
  "queues:manage",
]);

/** What one attempt did: the status and whether a subscriber can now get more for a price. */
interface Outcome {
  status: number;
  gained: boolean;
}

interface Attempt {
  way: UnpaidValue;
  /** "METHOD path" of the route it goes through (the documented path). */
  route: string;
  what: string;
  /** Runs the attempt as `client`; undoes whatever it made once judged. */
  run(client: Client): Promise<Outcome & { undo?: () => Promise<unknown> }>;
}

let redis: Redis;
let maintenance: Queue;

beforeAll(() => {
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  maintenance = new Queue("maintenance", { connection: redis });
});
afterAll(async () => {
  await maintenance.close();
  await redis.quit();
});

const inADay = () => new Date(Date.now() + 86_400_000).toISOString();
const unique = (prefix: string) => `${prefix} ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A package made by the super admin, removed again after the attempt. */
async function ownPackage(fields: Record<string, unknown>) {
  const res = await (await superAdmin()).post(PACKAGES, { name: unique("Walk"), ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.package as { id: string; name: string; coins: number; price: number; status: string };
}
const removePackage = async (id: string) => del(await superAdmin(), `${PACKAGES}?id=${id}`);
const packageNow = (id: string) => WalletPackageModel.findById(id).lean<{ coins: number; price: number; status: string }>();

/** A maintenance job that failed for good (it names no schedule). */
async function failedJob(): Promise<string> {
  const job = await maintenance.add(unique("no-such-schedule"), {}, { attempts: 1 });
  await expect.poll(() => job.getState(), { timeout: 15_000 }).toBe("failed");
  return String(job.id);
}

const ATTEMPTS: Attempt[] = [
  {
    way: "balance",
    route: "POST /admin/update-user-tier.php",
    what: "set a subscriber's balance",
    async run(client) {
      const { id } = await newUser();
      const res = await client.post("/admin/update-user-tier.php", { userId: id, newCoins: 1000, newTier: 1 });
      return { status: res.status, gained: (await ledgerSum(id)) > 0 };
    },
  },
  {
    way: "tier",
    route: "POST /admin/update-user-tier.php",
    what: "raise a subscriber's tier floor",
    async run(client) {
      const { id } = await newUser();
      const res = await client.post("/admin/update-user-tier.php", { userId: id, newCoins: 0, newTier: 5 });
      return { status: res.status, gained: ((await User.findById(id, { tier: 1 }).lean())?.tier ?? 1) > 1 };
    },
  },
  {
    way: "assignment",
    route: "POST /admin/user-packages.php",
    what: "assign a package",
    async run(client) {
      const pkg = await ownPackage({ coins: 40, price: 5 });
      const { id } = await newUser();
      const res = await client.post("/admin/user-packages.php", { userId: id, packageId: pkg.id, autoRenew: false });
      return { status: res.status, gained: (await ledgerSum(id)) > 0, undo: () => removePackage(pkg.id) };
    },
  },
  {
    way: "renewal",
    route: "POST /admin/user-packages.php",
    what: "assign a package that renews",
    async run(client) {
      const pkg = await ownPackage({ coins: 40, price: 0 });
      const { id } = await newUser();
      const res = await client.post("/admin/user-packages.php", { userId: id, packageId: pkg.id, autoRenew: true });
      const renews = await PackageAssignmentModel.exists({ userId: id, autoRenew: true });
      return { status: res.status, gained: renews !== null, undo: () => removePackage(pkg.id) };
    },
  },
  {
    way: "package_value",
    route: `POST ${PACKAGES}`,
    what: "create a free package",
    async run(client) {
      const name = unique("Free");
      const res = await client.post(PACKAGES, { name, coins: 1_000_000, price: 0 });
      const made = await WalletPackageModel.findOne({ name }).lean();
      return { status: res.status, gained: made !== null, undo: async () => made && removePackage(String(made._id)) };
    },
  },
  {
    way: "package_value",
    route: `POST ${PACKAGES}`,
    what: "create a package selling more coins per unit of money than any on sale",
    async run(client) {
      const onSale = await ownPackage({ coins: 100, price: 1 });
      const name = unique("Cheap");
      const res = await client.post(PACKAGES, { name, coins: 1_000_000, price: 0.01 });
      const made = await WalletPackageModel.findOne({ name }).lean();
      const undo = async () => {
        await removePackage(onSale.id);
        if (made) await removePackage(String(made._id));
      };
      return { status: res.status, gained: made !== null, undo };
    },
  },
  {
    way: "package_value",
    route: `PUT ${PACKAGES}`,
    what: "raise a package's coins",
    async run(client) {
      const pkg = await ownPackage({ coins: 100, price: 10 });
      const res = await put(client, PACKAGES, { ...pkg, coins: 1_000_000 });
      return { status: res.status, gained: (await packageNow(pkg.id))!.coins > 100, undo: () => removePackage(pkg.id) };
    },
  },
  {
    way: "package_value",
    route: `PUT ${PACKAGES}`,
    what: "lower a package's price",
    async run(client) {
      const pkg = await ownPackage({ coins: 100, price: 10 });
      const res = await put(client, PACKAGES, { ...pkg, price: 0.01 });
      return { status: res.status, gained: (await packageNow(pkg.id))!.price < 10, undo: () => removePackage(pkg.id) };
    },
  },
  {
    way: "package_value",
    route: `PUT ${PACKAGES}`,
    what: "put a free package on sale",
    async run(client) {
      const pkg = await ownPackage({ coins: 500, price: 0, status: "inactive" });
      const res = await put(client, PACKAGES, { ...pkg, status: "active" });
      return { status: res.status, gained: (await packageNow(pkg.id))!.status === "active", undo: () => removePackage(pkg.id) };
    },
  },
  {
    way: "redemption_codes",
    route: "POST /admin/redemption-codes.php",
    what: "make redemption codes",
    async run(client) {
      const label = unique("Walk codes");
      const res = await client.post("/admin/redemption-codes.php", { label, count: 1, coins: 1000, expiresAt: inADay() });
      return { status: res.status, gained: (await RedemptionBatch.exists({ label })) !== null };
    },
  },
  {
    way: "redemption_codes",
    route: "PUT /admin/redemption-codes.php",
    what: "re-enable a disabled batch of codes",
    async run(client) {
      const admin = await superAdmin();
      const made = await admin.post("/admin/redemption-codes.php", {
        label: unique("Walk off"),
        count: 1,
        coins: 1000,
        expiresAt: inADay(),
      });
      const id = made.body.batch.id as string;
      expect((await put(admin, "/admin/redemption-codes.php", { id, enabled: false })).status).toBe(200);
      const res = await put(client, "/admin/redemption-codes.php", { id, enabled: true });
      return { status: res.status, gained: (await RedemptionBatch.findById(id).lean())?.enabled === true };
    },
  },
  {
    way: "pricing",
    route: "PUT /admin/wallet-config.php",
    what: "change feature prices or tiers",
    async run(client) {
      // A real save would change prices under every other suite of the run: past the
      // permission check the empty body is refused (400), which is enough to tell who got through.
      const res = await put(client, "/admin/wallet-config.php", {});
      return { status: res.status, gained: res.status === 400 };
    },
  },
  {
    way: "job_retry",
    route: "POST /admin/queues.php",
    what: "retry a failed job",
    async run(client) {
      const jobId = await failedJob();
      const res = await client.post("/admin/queues.php", { queue: "maintenance", jobId, action: "retry" });
      const state = await (await maintenance.getJob(jobId))!.getState();
      return { status: res.status, gained: state !== "failed" || res.status === 200 };
    },
  },
  {
    way: "job_retry",
    route: `GET ${BULL_BOARD_PATH}`,
    what: "retry a failed job through Bull Board (it retries completed ones too: the work again, unpaid)",
    async run(client) {
      const jobId = await failedJob();
      const res = await client.request("PUT", `${BULL_BOARD_PATH}/api/queues/maintenance/${jobId}/retry`);
      return { status: res.status, gained: res.status === 204 };
    },
  },
];

/** Calls that change packages or coins but never add value, with why. */
const TAKES_ONLY: Record<string, string> = {
  [`DELETE ${PACKAGES}`]: "withdraws an offer",
  "DELETE /admin/user-packages.php": "ends a subscription; the coins credited stay, nothing new is given",
};

const key = (route: Route) => `${route.method.toUpperCase()} ${route.paths[0]}`;

describe("every way of giving value without payment needs coins:grant", () => {
  it("walks every administrator call that can change coins, prices or packages, and every way in UNPAID_VALUE", () => {
    const touching = API_ROUTES.filter(
      (route) =>
        route.auth === "admin" &&
        (route.method !== "get" || (route.kind === "raw" && route.prefix)) &&
        permissionsOf(route).some((p) => TOUCHES_VALUE.has(p)),
    ).map(key);
    const walked = new Set([...ATTEMPTS.map((a) => a.route), ...Object.keys(TAKES_ONLY)]);
    expect(touching.filter((route) => !walked.has(route))).toEqual([]);
    expect(new Set(ATTEMPTS.map((a) => a.way))).toEqual(new Set(Object.keys(UNPAID_VALUE)));
    // Each route declares the ways it was walked for, so the permission follows from the table.
    for (const attempt of ATTEMPTS) {
      const route = API_ROUTES.find((r) => key(r) === attempt.route)!;
      if (route.kind === "raw") continue;
      expect(grantsOf(route), attempt.route).toContain(attempt.way);
    }
  });

  for (const role of ADMIN_ROLES as readonly AdminRole[]) {
    const mayGrant = roleAllows(role, VALUE_PERMISSION);
    it(`as ${role} (${mayGrant ? "holds" : "lacks"} coins:grant)`, async () => {
      const client = await adminWithRole(role);
      for (const attempt of ATTEMPTS) {
        const { status, gained, undo } = await attempt.run(client);
        const label = `${role}: ${attempt.what} (${attempt.route}) -> ${status}`;
        try {
          if (mayGrant) {
            // Proves the attempt really gives value when allowed, so its "false" below means something.
            expect(gained, label).toBe(true);
          } else {
            expect(status, label).toBe(403);
            expect(gained, label).toBe(false);
          }
        } finally {
          await undo?.();
        }
      }
    });
  }
});

describe("the renewal of an administrator's assignment is the administrator's choice alone", () => {
  it("a subscriber cannot turn on the renewal of a one-off grant (a free package every period), only off", async () => {
    const promo = await ownPackage({ coins: 1000, price: 0 });
    const { client, id } = await provenInDatabase(await newUser());
    const given = await (
      await superAdmin()
    ).post("/admin/user-packages.php", { userId: id, packageId: promo.id, autoRenew: false });
    expect(given.status).toBe(200);
    const subscriptionId = given.body.assignment.id as string;
    const on = await put(client, "/wallet/auto-renew.php", { subscriptionId, autoRenew: true });
    expect(on.status).toBe(403);
    expect(on.body.code).toBe("renewal_not_yours");
    expect((await PackageAssignmentModel.findById(subscriptionId).lean())!.autoRenew).toBe(false);
    expect((await put(client, "/wallet/auto-renew.php", { subscriptionId, autoRenew: false })).status).toBe(200);
    expect(UNPAID_VALUE.renewal.what).toContain("PUT wallet/auto-renew.php");
    await removePackage(promo.id);
  });
});

describe("package prices are whole minor units of the currency", () => {
  it("refuses a price below the smallest unit, on create and update, for every role that manages packages", async () => {
    for (const client of [await superAdmin(), await adminWithRole("manager")]) {
      const name = unique("Near free");
      const made = await client.post(PACKAGES, { name, coins: 1_000_000, price: 0.004 });
      expect(made.status).toBe(400);
      expect(made.body.error).toMatch(/^price/u);
      expect(await WalletPackageModel.exists({ name })).toBeNull();

      const pkg = await ownPackage({ coins: 10, price: 1 });
      const edited = await put(client, PACKAGES, { ...pkg, price: "0.004" });
      expect(edited.status).toBe(400);
      expect(edited.body.error).toMatch(/^price/u);
      expect((await packageNow(pkg.id))!.price).toBe(1);
      expect((await put(client, PACKAGES, { ...pkg, price: 2.499 })).body.error).toMatch(/^price must be in steps of 0\.01/u);
      await removePackage(pkg.id);
    }
  });

  it("a manager still makes ordinary packages and edits that give no more for the money", async () => {
    const onSale = await ownPackage({ coins: 100, price: 1 });
    const manager = await adminWithRole("manager");
    const made = await manager.post(PACKAGES, { name: unique("Plain"), coins: 50, price: 1 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const pkg = made.body.package;
    const dearer = await put(manager, PACKAGES, { ...pkg, coins: 40, price: 1.25, description: "Smaller" });
    expect(dearer.status, JSON.stringify(dearer.body)).toBe(200);
    expect(dearer.body.package).toMatchObject({ coins: 40, price: 1.25 });
    await removePackage(pkg.id);
    await removePackage(onSale.id);
  });

  it("a value change by a role holding coins:grant is audited with before, after and why", async () => {
    const pkg = await ownPackage({ coins: 100, price: 10 });
    const admin = await adminWithRole("admin");
    expect((await put(admin, PACKAGES, { ...pkg, coins: 150 })).status).toBe(200);
    const entry = await AuditLog.findOne({ targetId: pkg.id, action: "package.update" }).lean();
    expect(entry?.before).toMatchObject({ coins: 100, price: 10 });
    expect(entry?.after).toMatchObject({ coins: 150, price: 10, value_change: "coins raised from 100 to 150" });
    await removePackage(pkg.id);
  });

  it("a new package renews only when asked to", async () => {
    const admin = await superAdmin();
    const plain = await admin.post(PACKAGES, { name: unique("No renew"), coins: 5, price: 1 });
    expect(plain.body.package.auto_renew).toBe(false);
    const asked = await admin.post(PACKAGES, { name: unique("Renew"), coins: 5, price: 1, auto_renew: true });
    expect(asked.body.package.auto_renew).toBe(true);
    await removePackage(plain.body.package.id);
    await removePackage(asked.body.package.id);
  });
});
