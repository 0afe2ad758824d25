/**
 * Buying coins (wallet/packages.php, wallet/buy.php, wallet/auto-renew.php) on the running stack,
 * through the offline demo store (OPERATOR_BILLING=offline-demo, tests/setup/global.ts), which
 * this run declines above a price of 5,000. Buyers' numbers are proven (only a proven number is
 * billed); a stack that sells nothing is tests/browser/get-coins-billing.test.ts.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  LedgerEntry,
  OfflineBilling,
  PackageAssignmentModel,
  User,
  WalletPackageModel,
  ledgerSum,
  settlePurchase,
  type PackageAssignmentDoc,
} from "@storefront/shared/server";
import { renewDueAssignments } from "../../workers/src/schedules/renewals";
import { Client, newUser, provenInDatabase } from "../support/client";
import { put, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

async function offer(fields: Record<string, unknown>): Promise<string> {
  const admin = await superAdmin();
  const created = await admin.post("/admin/wallet-packages-simple.php", {
    name: `Shop ${randomUUID().slice(0, 8)}`,
    subscription_type: "monthly",
    ...fields,
  });
  expect(created.status).toBe(201);
  return created.body.package.id as string;
}

const buy = (client: Client, packageId: unknown, key = randomUUID()) =>
  client.post("/wallet/buy.php", { packageId }, { "Idempotency-Key": key });

/** A subscriber whose number is proven: one who may buy. */
const buyer = async () => provenInDatabase(await newUser());

const balance = async (userId: string) => (await User.findById(userId, { coins: 1 }).lean<{ coins: number }>())!.coins;
const credits = (userId: string) => LedgerEntry.countDocuments({ userId, kind: "credit" });

/** A purchase a crash left recorded and unpaid, as buy.php wrote it (`opened`: the billing and number it recorded). */
function crashedPurchase(
  userId: string,
  packageId: string,
  opened: { billing?: string; billedPhone?: string } = {},
  purchaseKey = `buy:${userId}:${randomUUID()}`,
) {
  return PackageAssignmentModel.create({
    userId,
    packageId,
    packageName: "crashed",
    coins: 70,
    price: 2,
    subscriptionType: "monthly",
    activeKey: `${userId}:${packageId}`,
    expiresAt: new Date(Date.now() + 30 * 24 * 3600_000),
    creditPending: true,
    assignedBy: `user:${userId}`,
    purchaseKey,
    payment: "pending",
    ...opened,
  });
}

describe("buying coins", () => {
  it("lists the packages on offer, buys one once per key, and pushes nothing twice", async () => {
    const packageId = await offer({ coins: 500, price: 5 });
    const { client, id } = await buyer();
    const shop = await client.get("/wallet/packages.php");
    expect(shop.status).toBe(200);
    expect(shop.body.packages.find((p: { id: string }) => p.id === packageId)).toMatchObject({ coins: 500, price: 5 });

    const key = randomUUID();
    const first = await buy(client, packageId, key);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, coinsAdded: 500, coins: 500, replayed: false });
    const again = await buy(client, packageId, key);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ coins: 500, replayed: true, subscription: { id: first.body.subscription.id } });
    expect(await credits(id)).toBe(1);
    expect(await balance(id)).toBe(await ledgerSum(id));

    // The package is running: a new purchase of it (another key) is refused before any charge.
    const twice = await buy(client, packageId);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe("package_already_active");
    expect((await client.get("/wallet/packages.php")).body.subscriptions.map((s: { id: string }) => s.id)).toEqual([
      first.body.subscription.id,
    ]);
  });

  it("credits once when 20 requests with one key arrive together", async () => {
    const packageId = await offer({ coins: 300, price: 3 });
    const { client, id } = await buyer();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => buy(client, packageId, key)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.replayed === false).length).toBeLessThanOrEqual(1);
    expect(await credits(id)).toBe(1);
    expect(await balance(id)).toBe(300);
    expect(await PackageAssignmentModel.countDocuments({ userId: id })).toBe(1);
  });

  it("refuses one key used for two packages even when both requests arrive together: one purchase, the other 409", async () => {
    const [p1, p2] = [await offer({ coins: 100, price: 1 }), await offer({ coins: 900, price: 9 })];
    const pairs = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const { client, id } = await buyer();
        const key = randomUUID();
        const answers = await Promise.all([buy(client, p1, key), buy(client, p2, key)]);
        return { id, answers };
      }),
    );
    for (const { id, answers } of pairs) {
      const won = answers.filter((a) => a.status === 200);
      expect(won).toHaveLength(1);
      expect(won[0]!.body.replayed).toBe(false);
      expect(answers.find((a) => a.status !== 200)!.body.code).toBe("idempotency_conflict");
      expect(await credits(id)).toBe(1);
      expect(await balance(id)).toBe(won[0]!.body.coinsAdded);
    }
  });

  it("answers a charged purchase of a hand-edited package (a null description) instead of a 500 every retry repeats", async () => {
    const packageId = await offer({ coins: 200, price: 2, description: "Edited by hand below" });
    // What an operator's hand edit or an import leaves behind; the admin API never writes it.
    await WalletPackageModel.updateOne({ _id: packageId }, { $set: { description: null } });
    const { client, id } = await buyer();
    const shop = await client.get("/wallet/packages.php");
    expect(shop.status).toBe(200);
    expect(shop.body.packages.find((p: { id: string }) => p.id === packageId)).toMatchObject({ description: "" });
    const key = randomUUID();
    const first = await buy(client, packageId, key);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, coinsAdded: 200, replayed: false });
    expect((await buy(client, packageId, key)).body).toMatchObject({ replayed: true });
    expect(await credits(id)).toBe(1);
    expect(await balance(id)).toBe(200);
  });

  it("credits nothing when the operator declines, and says so with its code", async () => {
    const packageId = await offer({ coins: 100, price: 9000 });
    const { client, id } = await buyer();
    const res = await buy(client, packageId);
    expect(res.status).toBe(402);
    expect(res.body.code).toBe("payment_declined");
    expect(await balance(id)).toBe(0);
    expect(await credits(id)).toBe(0);
    expect(await PackageAssignmentModel.countDocuments({ userId: id })).toBe(0);
  });

  it("refuses garbage with 400 naming the field, an unknown package with 404, and strangers with 401", async () => {
    const { client } = await buyer();
    for (const packageId of [undefined, "", "x", 42, { $gt: "" }]) {
      const res = await buy(client, packageId);
      expect(res.status, JSON.stringify(packageId)).toBe(400);
      expect(res.body.error).toMatch(/packageId/u);
    }
    expect((await buy(client, "0123456789abcdef01234567")).status).toBe(404);
    expect(
      (await client.post("/wallet/buy.php", { packageId: "0123456789abcdef01234567" }, { "Idempotency-Key": "bad key!" })).status,
    ).toBe(400);
    expect((await buy(new Client(), "0123456789abcdef01234567")).status).toBe(401);
    expect((await new Client().get("/wallet/packages.php")).status).toBe(401);
  });

  it("lets the subscriber switch off the renewal of their own package only", async () => {
    const packageId = await offer({ coins: 50, price: 1, auto_renew: true });
    const { client } = await buyer();
    const bought = await buy(client, packageId);
    const subscriptionId = bought.body.subscription.id as string;
    expect(bought.body.subscription.auto_renew).toBe(true);
    const off = await put(client, "/wallet/auto-renew.php", { subscriptionId, autoRenew: false });
    expect(off.status).toBe(200);
    expect(off.body.subscription.auto_renew).toBe(false);
    const stranger = await newUser();
    expect((await put(stranger.client, "/wallet/auto-renew.php", { subscriptionId, autoRenew: true })).status).toBe(404);
    expect((await put(client, "/wallet/auto-renew.php", { subscriptionId, autoRenew: "maybe" })).status).toBe(400);
  });

  it("finishes a purchase a crash left unpaid: charged with its own key, then credited once", async () => {
    const packageId = await offer({ coins: 70, price: 2 });
    const { id } = await buyer();
    const created = await crashedPurchase(id, packageId);
    const billing = new OfflineBilling({ selfPurchase: true });
    const later = new Date(Date.now() + 120_000);
    const report = await renewDueAssignments({ billing, userId: id, now: later });
    expect(report.purchasesFinished).toBe(1);
    expect(billing.chargedKeys()).toEqual([created.purchaseKey]);
    expect(await balance(id)).toBe(70);
    await renewDueAssignments({ billing, userId: id, now: later });
    expect(await credits(id)).toBe(1);
    expect((await PackageAssignmentModel.findById(created._id).lean())!.payment).toBe("paid");
  });

  it("refuses a number that is not proven (403 phone_unproven) before recording or charging anything", async () => {
    const packageId = await offer({ coins: 400, price: 4, auto_renew: false });
    const { client, id } = await newUser();
    expect((await client.get("/wallet/packages.php")).body.purchases).toBe("phone_unproven");
    const res = await buy(client, packageId);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("phone_unproven");
    expect(await PackageAssignmentModel.countDocuments({ userId: id })).toBe(0);
    expect(await LedgerEntry.countDocuments({ userId: id })).toBe(0);

    // Bought while proven, then the number lost its proof (another account proved it): no renewal switched on.
    await provenInDatabase({ id });
    expect((await client.get("/wallet/packages.php")).body.purchases).toBe("open");
    const bought = await buy(client, packageId);
    expect(bought.status).toBe(200);
    await User.updateOne({ _id: id }, { $set: { phoneVerifiedAt: null } });
    const on = await put(client, "/wallet/auto-renew.php", { subscriptionId: bought.body.subscription.id, autoRenew: true });
    expect(on.status).toBe(403);
    expect(on.body.code).toBe("phone_unproven");
    expect((await PackageAssignmentModel.findById(bought.body.subscription.id).lean())!.autoRenew).toBe(false);
  });

  it("never makes an administrator's one-off grant renew, and lets the subscriber stop one that renews", async () => {
    const admin = await superAdmin();
    const promo = await offer({ coins: 1000, price: 0 });
    const renewing = await offer({ coins: 10, price: 1 });
    const own = await offer({ coins: 20, price: 1, auto_renew: false });
    const { client, id } = await buyer();
    const once = await admin.post("/admin/user-packages.php", { userId: id, packageId: promo, autoRenew: false });
    const given = await admin.post("/admin/user-packages.php", { userId: id, packageId: renewing, autoRenew: true });
    expect([once.status, given.status]).toEqual([200, 200]);
    const bought = await buy(client, own);
    expect(bought.body.subscription).toMatchObject({ bought: true, auto_renew: false });

    const on = await put(client, "/wallet/auto-renew.php", { subscriptionId: once.body.assignment.id, autoRenew: true });
    expect(on.status).toBe(403);
    expect(on.body.code).toBe("renewal_not_yours");
    expect((await PackageAssignmentModel.findById(once.body.assignment.id).lean())!.autoRenew).toBe(false);
    const off = await put(client, "/wallet/auto-renew.php", { subscriptionId: given.body.assignment.id, autoRenew: false });
    expect(off.status).toBe(200);
    expect(off.body.subscription).toMatchObject({ auto_renew: false, bought: false });
    // Switched off, the administrator's renewal is not switched on again by the subscriber either.
    const back = await put(client, "/wallet/auto-renew.php", { subscriptionId: given.body.assignment.id, autoRenew: true });
    expect(back.body.code).toBe("renewal_not_yours");
    // Their own purchase they may renew.
    const mine = await put(client, "/wallet/auto-renew.php", { subscriptionId: bought.body.subscription.id, autoRenew: true });
    expect(mine.status).toBe(200);
    expect(mine.body.subscription.auto_renew).toBe(true);
    const listed = (await client.get("/wallet/packages.php")).body.subscriptions as { id: string; bought: boolean }[];
    expect(Object.fromEntries(listed.map((s) => [s.id, s.bought]))).toEqual({
      [once.body.assignment.id]: false,
      [given.body.assignment.id]: false,
      [bought.body.subscription.id]: true,
    });
  });

  it("records which billing opened a purchase and the number it billed", async () => {
    const packageId = await offer({ coins: 40, price: 1 });
    const { client, id } = await buyer();
    const bought = await buy(client, packageId);
    expect(bought.status).toBe(200);
    const { phone } = (await User.findById(id, { phone: 1 }).lean<{ phone: string }>())!;
    expect(await PackageAssignmentModel.findById(bought.body.subscription.id).lean()).toMatchObject({
      billing: "offline-demo",
      billedPhone: phone,
      payment: "paid",
    });
  });

  it("never ends a crashed purchase unasked: it asks the billing that opened it, with the number it billed", async () => {
    const later = new Date(Date.now() + 120_000);
    const errors: unknown[] = [];
    const log = { info: () => {}, warn: () => {}, error: (...args: unknown[]) => void errors.push(args) };

    // The number lost its proof after the charge was sent: the charge is still asked, and credited.
    const lost = await buyer();
    const first = await crashedPurchase(lost.id, await offer({ coins: 70, price: 2 }), {
      billing: "offline-demo",
      billedPhone: "+15550001111",
    });
    await User.updateOne({ _id: lost.id }, { $set: { phoneVerifiedAt: null } });
    const demo = new OfflineBilling({ selfPurchase: true });
    expect((await renewDueAssignments({ billing: demo, log, userId: lost.id, now: later })).purchasesFinished).toBe(1);
    expect(demo.chargedKeys()).toEqual([first.purchaseKey]);
    expect(await PackageAssignmentModel.findById(first._id).lean()).toMatchObject({ payment: "paid", isActive: true });
    expect(await balance(lost.id)).toBe(70);

    // The billing in use is not the one that opened it (here one that sells nothing): left pending, the operator told.
    const proven = await buyer();
    const second = await crashedPurchase(proven.id, await offer({ coins: 70, price: 2 }), { billing: "offline-demo" });
    const legacy = await crashedPurchase(proven.id, await offer({ coins: 70, price: 2 }));
    const sellsNothing = new OfflineBilling();
    const report = await renewDueAssignments({ billing: sellsNothing, log, userId: proven.id, now: later });
    expect(report.purchasesFinished).toBe(0);
    expect(sellsNothing.chargedKeys()).toEqual([]);
    expect(await PackageAssignmentModel.findById(second._id).lean()).toMatchObject({ payment: "pending" });
    expect(await PackageAssignmentModel.findById(legacy._id).lean()).toMatchObject({ payment: "pending" });
    expect(JSON.stringify(errors)).toContain('"purchases":2');
    // Nor through another billing that sells.
    const otherProvider = new OfflineBilling({ selfPurchase: true });
    const direct = await settlePurchase(second.toObject() as PackageAssignmentDoc, undefined, {
      name: "another-provider",
      sellsToSubscribers: true,
      charge: (request) => otherProvider.charge(request),
    });
    expect(direct).toMatchObject({ paid: false, pending: true, reason: "billing_changed" });
    expect(otherProvider.chargedKeys()).toEqual([]);
    expect(await balance(proven.id)).toBe(0);
    expect(await credits(proven.id)).toBe(0);
  });

  it("answers a retried purchase left to another billing with 503 payment_pending, not a charge", async () => {
    const packageId = await offer({ coins: 70, price: 2 });
    const { client, id } = await buyer();
    const key = randomUUID();
    const left = await crashedPurchase(
      id,
      packageId,
      { billing: "another-provider", billedPhone: "+15550002222" },
      `buy:${id}:${key}`,
    );
    const res = await buy(client, packageId, key);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("payment_pending");
    expect(await PackageAssignmentModel.findById(left._id).lean()).toMatchObject({ payment: "pending" });
    expect(await credits(id)).toBe(0);
  });

  it("credits nothing from a stale copy when the purchase was ended while its charge was out", async () => {
    const { id } = await buyer();
    const opened = await crashedPurchase(id, await offer({ coins: 70, price: 2 }), {
      billing: "offline-demo",
      billedPhone: "+15550003333",
    });
    const stale = opened.toObject() as PackageAssignmentDoc;
    const demo = new OfflineBilling({ selfPurchase: true });
    // Another settle ends the record while this one's charge is with the operator.
    const slow = {
      name: "offline-demo",
      sellsToSubscribers: true,
      charge: async (request: Parameters<OfflineBilling["charge"]>[0]) => {
        await PackageAssignmentModel.deleteOne({ _id: opened._id });
        return demo.charge(request);
      },
    };
    const settled = await settlePurchase(stale, undefined, slow);
    expect(settled.paid).toBe(false);
    expect(await credits(id)).toBe(0);
    expect(await balance(id)).toBe(0);
    expect(await ledgerSum(id)).toBe(0);
  });

  it("ends a crashed purchase the billing declines, crediting nothing", async () => {
    const { id } = await buyer();
    const opened = await crashedPurchase(id, await offer({ coins: 70, price: 2 }), {
      billing: "offline-demo",
      billedPhone: "+15550004444",
    });
    const declines = new OfflineBilling({ selfPurchase: true, decline: () => "insufficient credit" });
    await renewDueAssignments({ billing: declines, userId: id, now: new Date(Date.now() + 120_000) });
    expect(declines.chargedKeys()).toEqual([opened.purchaseKey]);
    expect(await PackageAssignmentModel.findById(opened._id).lean()).toBeNull();
    expect(await balance(id)).toBe(0);
  });
});
