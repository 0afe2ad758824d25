import { describe, expect, it } from "vitest";
import { LedgerEntry, PackageAssignmentModel, User, ledgerSum } from "@storefront/shared/server";
import { OfflineBilling } from "@storefront/shared/server";
import { renewDueAssignments } from "../../workers/src/schedules/renewals";
import { Client, newUser, provenInDatabase } from "../support/client";
import { superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A package assigned to a subscriber whose number is proven (`proven: false`: one who never proved it). */
async function assigned(admin: Client, pkg: Record<string, unknown>, autoRenew = true, proven = true) {
  const user = await newUser();
  const { client, id } = proven ? await provenInDatabase(user) : user;
  const created = await admin.post("/admin/wallet-packages-simple.php", { name: `Renew ${Math.random()}`, ...pkg });
  expect(created.status).toBe(201);
  const res = await admin.post("/admin/user-packages.php", { userId: id, packageId: created.body.package.id, autoRenew });
  expect(res.status).toBe(200);
  const assignment = await PackageAssignmentModel.findById(res.body.assignment.id).lean();
  return { client, userId: id, packageId: created.body.package.id as string, assignment: assignment! };
}

async function balance(userId: string): Promise<number> {
  return (await User.findById(userId, { coins: 1 }).lean<{ coins: number }>())!.coins;
}

describe("package renewal (scheduled job, run directly with a moved clock)", () => {
  it("renews an auto-renew daily package at expiry through operator billing and credits its coins once per period", async () => {
    const admin = await superAdmin();
    const { client, userId, assignment } = await assigned(admin, { coins: 100, price: 0.5, subscription_type: "daily" });
    expect((await client.post("/wallet/use.php", { featureType: "text", tokens: 30 })).status).toBe(200);
    const billing = new OfflineBilling();
    const firstExpiry = assignment.expiresAt!.getTime();

    const early = await renewDueAssignments({ billing, userId, now: new Date(firstExpiry - 1000) });
    expect(early.renewed).toBe(0);
    expect(await balance(userId)).toBe(70);

    const at = new Date(firstExpiry + 1000);
    const [a, b] = await Promise.all([
      renewDueAssignments({ billing, userId, now: at }),
      renewDueAssignments({ billing, userId, now: at }),
    ]);
    expect(a.renewed + b.renewed).toBe(1);
    expect(await balance(userId)).toBe(170);
    const renewal = await LedgerEntry.find({ userId, kind: "renewal" }).lean();
    expect(renewal).toHaveLength(1);
    expect(renewal[0]).toMatchObject({ amount: 100, key: `package:${assignment._id}:1`, actor: "scheduler" });
    expect(billing.chargedKeys()).toEqual([`billing:${assignment._id}:1`]);

    const after = await PackageAssignmentModel.findById(assignment._id).lean();
    expect(after).toMatchObject({ isActive: true, period: 1 });
    expect(after!.expiresAt!.getTime()).toBe(firstExpiry + DAY);

    expect((await renewDueAssignments({ billing, userId, now: at })).renewed).toBe(0);
    expect((await renewDueAssignments({ billing, userId, now: new Date(firstExpiry + DAY + 1000) })).renewed).toBe(1);
    expect(await balance(userId)).toBe(270);
    expect(await ledgerSum(userId)).toBe(270);
    const listed = (await admin.get(`/admin/user-packages.php?userId=${userId}`)).body.packages[0];
    expect(listed).toMatchObject({ is_active: true, renewals: 2 });
  });

  it("uses the package's period: weekly 7 days, monthly 30 days", async () => {
    const admin = await superAdmin();
    for (const [type, days] of [
      ["weekly", 7],
      ["monthly", 30],
    ] as const) {
      const { userId, assignment } = await assigned(admin, { coins: 10, price: 1, subscription_type: type });
      const start = assignment.expiresAt!.getTime();
      expect(Math.abs(start - assignment.createdAt.getTime() - days * DAY)).toBeLessThan(5000);
      const report = await renewDueAssignments({ billing: new OfflineBilling(), userId, now: new Date(start + 1) });
      expect(report.renewed).toBe(1);
      const after = await PackageAssignmentModel.findById(assignment._id).lean();
      expect(after!.expiresAt!.getTime()).toBe(start + days * DAY);
      expect(await balance(userId)).toBe(20);
    }
  });

  it("starts a fresh period when the schedule missed more than one, crediting once", async () => {
    const admin = await superAdmin();
    const { userId, assignment } = await assigned(admin, { coins: 5, price: 0, subscription_type: "daily" });
    const now = new Date(assignment.expiresAt!.getTime() + 3 * DAY);
    expect((await renewDueAssignments({ billing: new OfflineBilling(), userId, now })).renewed).toBe(1);
    const after = await PackageAssignmentModel.findById(assignment._id).lean();
    expect(after!.expiresAt!.getTime()).toBe(now.getTime() + DAY);
    expect(await balance(userId)).toBe(10);
  });

  it("resets the balance to 0 through the ledger and ends the assignment when operator billing fails", async () => {
    const admin = await superAdmin();
    const { userId, packageId, assignment } = await assigned(admin, { coins: 250, price: 3, subscription_type: "daily" });
    expect(await balance(userId)).toBe(250);
    const billing = new OfflineBilling({ decline: (req) => (req.userId === userId ? "insufficient operator credit" : null) });
    const now = new Date(assignment.expiresAt!.getTime() + 1000);

    const report = await renewDueAssignments({ billing, userId, now });
    expect(report).toMatchObject({ renewed: 0, failed: 1 });
    expect(await balance(userId)).toBe(0);
    const resets = await LedgerEntry.find({ userId, kind: "reset" }).lean();
    expect(resets).toHaveLength(1);
    expect(resets[0]).toMatchObject({ amount: -250, balanceAfter: 0 });
    expect(resets[0]!.reason).toContain("insufficient operator credit");
    expect(await ledgerSum(userId)).toBe(0);
    expect(await PackageAssignmentModel.findById(assignment._id).lean()).toMatchObject({
      isActive: false,
      endedReason: "renewal_failed",
    });

    expect((await renewDueAssignments({ billing, userId, now })).failed).toBe(0);
    expect(await LedgerEntry.countDocuments({ userId, kind: "reset" })).toBe(1);
    const again = await admin.post("/admin/user-packages.php", { userId, packageId });
    expect(again.status).toBe(200);
  });

  it("ends an expired assignment without auto-renew and leaves the balance alone", async () => {
    const admin = await superAdmin();
    const { userId, assignment } = await assigned(admin, { coins: 40, price: 1, subscription_type: "daily" }, false);
    const billing = new OfflineBilling();
    const report = await renewDueAssignments({ billing, userId, now: new Date(assignment.expiresAt!.getTime() + 1) });
    expect(report).toMatchObject({ expired: 1, renewed: 0 });
    expect(billing.chargedKeys()).toEqual([]);
    expect(await balance(userId)).toBe(40);
    expect(await PackageAssignmentModel.findById(assignment._id).lean()).toMatchObject({
      isActive: false,
      endedReason: "expired",
    });
    expect(await LedgerEntry.countDocuments({ userId, kind: { $in: ["renewal", "reset"] } })).toBe(0);
  });

  it("finishes a first credit that a crash left pending, once", async () => {
    const admin = await superAdmin();
    const { userId, assignment } = await assigned(admin, { coins: 60, price: 1 });
    // As if the API died after creating the assignment and before crediting it.
    await LedgerEntry.deleteOne({ key: `package:${assignment._id}:0` });
    await User.updateOne({ _id: userId }, { $inc: { coins: -60 } });
    await PackageAssignmentModel.updateOne({ _id: assignment._id }, { creditPending: true });
    const now = new Date(Date.now() + 5 * 60_000);
    expect((await renewDueAssignments({ billing: new OfflineBilling(), userId, now })).creditsFinished).toBe(1);
    expect((await renewDueAssignments({ billing: new OfflineBilling(), userId, now })).creditsFinished).toBe(0);
    expect(await balance(userId)).toBe(60);
    expect(await ledgerSum(userId)).toBe(60);
  });

  it("renews an administrator's package of an unproven number as before when the renewal collects nothing", async () => {
    const admin = await superAdmin();
    // A billing that does not collect (the default offline one): no billing call, no proof needed.
    const offline = await assigned(admin, { coins: 80, price: 2, subscription_type: "daily" }, true, false);
    const sellsNothing = new OfflineBilling();
    const pushed: unknown[] = [];
    const pusher = { toUser: (...args: unknown[]) => void pushed.push(args) };
    const report = await renewDueAssignments({
      billing: sellsNothing,
      pusher,
      userId: offline.userId,
      now: new Date(offline.assignment.expiresAt!.getTime() + 1000),
    });
    expect(report).toMatchObject({ renewed: 1, failed: 0, stopped: 0 });
    expect(sellsNothing.chargedKeys()).toEqual([]);
    expect(await balance(offline.userId)).toBe(160);
    expect(await LedgerEntry.countDocuments({ userId: offline.userId, kind: "reset" })).toBe(0);
    expect(await PackageAssignmentModel.findById(offline.assignment._id).lean()).toMatchObject({ isActive: true, period: 1 });
    expect(pushed).toEqual([[offline.userId, "wallet:updated", { coins: 160, reason: "renewal" }]]);

    // A price of 0 collects nothing either, even under a billing that collects.
    const free = await assigned(admin, { coins: 25, price: 0, subscription_type: "daily" }, true, false);
    const collecting = new OfflineBilling({ selfPurchase: true });
    const now = new Date(free.assignment.expiresAt!.getTime() + 1000);
    expect(await renewDueAssignments({ billing: collecting, userId: free.userId, now })).toMatchObject({
      renewed: 1,
      stopped: 0,
    });
    expect(collecting.chargedKeys()).toEqual([]);
    expect(await balance(free.userId)).toBe(50);
    expect(await ledgerSum(free.userId)).toBe(50);
  });

  it("stops an administrator's package of an unproven number when a collecting billing would bill it: ended, balance kept, no billing call", async () => {
    const admin = await superAdmin();
    const { userId, assignment } = await assigned(admin, { coins: 80, price: 2, subscription_type: "daily" }, true, false);
    const billing = new OfflineBilling({ selfPurchase: true });
    const pushed: unknown[] = [];
    const pusher = { toUser: (...args: unknown[]) => void pushed.push(args) };
    const now = new Date(assignment.expiresAt!.getTime() + 1000);
    const report = await renewDueAssignments({ billing, pusher, userId, now });
    expect(report).toMatchObject({ renewed: 0, failed: 0, stopped: 1 });
    expect(billing.chargedKeys()).toEqual([]);
    expect(await balance(userId)).toBe(80);
    expect(await LedgerEntry.countDocuments({ userId, kind: { $in: ["reset", "renewal"] } })).toBe(0);
    expect(await PackageAssignmentModel.findById(assignment._id).lean()).toMatchObject({
      isActive: false,
      endedReason: "phone_unproven",
    });
    expect(pushed).toEqual([[userId, "wallet:updated", { coins: 80, reason: "phone_unproven" }]]);
    expect((await renewDueAssignments({ billing, pusher, userId, now })).stopped).toBe(0);
    expect(pushed).toHaveLength(1);
  });

  it("ends a subscriber's own purchase the billing no longer sells without a charge and without a reset", async () => {
    const admin = await superAdmin();
    const { userId, assignment } = await assigned(admin, { coins: 30, price: 1, subscription_type: "daily" });
    // As a purchase (buy.php) records it.
    await PackageAssignmentModel.updateOne({ _id: assignment._id }, { assignedBy: `user:${userId}`, payment: "paid" });
    const now = new Date(assignment.expiresAt!.getTime() + 1000);
    const sellsNothing = new OfflineBilling();
    expect(await renewDueAssignments({ billing: sellsNothing, userId, now })).toMatchObject({ failed: 0, stopped: 1 });
    expect(sellsNothing.chargedKeys()).toEqual([]);
    expect(await LedgerEntry.countDocuments({ userId, kind: { $in: ["reset", "renewal"] } })).toBe(0);
    expect(await balance(userId)).toBe(30);
    expect(await PackageAssignmentModel.findById(assignment._id).lean()).toMatchObject({
      isActive: false,
      endedReason: "billing_unavailable",
    });
  });
});
