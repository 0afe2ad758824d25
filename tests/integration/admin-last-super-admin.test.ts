/**
 * The last-super-admin rule, on the real database server but in a database of its own: the
 * shared one always holds the run's super admin, so "the last one" cannot happen there.
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Admin } from "@storefront/shared/server";
import { updateAdmin } from "../../api/src/services/admins";
import { hashPassword } from "../../api/src/services/passwords";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri"), { dbName: `admins_guard_${process.pid}_${Date.now()}` });
});
afterAll(async () => {
  await mongoose.connection.dropDatabase();
  await mongoose.disconnect();
});

const actor = (doc: { _id: unknown; username: string }) => ({
  id: String(doc._id),
  username: doc.username,
  role: "super_admin" as const,
});

describe("the last active super admin", () => {
  it("cannot be demoted or deactivated by anyone", async () => {
    const passwordHash = await hashPassword("Correct-Horse-42");
    const [a, b] = await Admin.create([
      { username: "last-a", passwordHash, role: "super_admin" },
      { username: "last-b", passwordHash, role: "super_admin" },
    ]);
    await updateAdmin(actor(b!), { id: String(a!._id), role: "admin" });
    // Any other super admin (one not in this database stands in) meets the rule.
    const outsider = { id: new mongoose.Types.ObjectId().toString(), username: "outsider", role: "super_admin" as const };
    await expect(updateAdmin(outsider, { id: String(b!._id), role: "manager" })).rejects.toMatchObject({ status: 409 });
    await expect(updateAdmin(outsider, { id: String(b!._id), isActive: false })).rejects.toMatchObject({ status: 409 });
    expect(await Admin.countDocuments({ role: "super_admin", isActive: true })).toBe(1);
    // A super admin being made active again, or demoted with another one left, is fine.
    await updateAdmin(outsider, { id: String(a!._id), role: "super_admin" });
    await updateAdmin(outsider, { id: String(b!._id), isActive: false });
    expect(await Admin.countDocuments({ role: "super_admin", isActive: true })).toBe(1);
    await Admin.deleteMany({});
  });

  it("two concurrent demotions (or deactivations) of the last two never both pass", async () => {
    const passwordHash = await hashPassword("Correct-Horse-42");
    const [a, b] = await Admin.create([
      { username: "race-a", passwordHash, role: "super_admin" },
      { username: "race-b", passwordHash, role: "super_admin" },
    ]);
    for (let round = 0; round < 20; round += 1) {
      await Admin.updateMany({}, { role: "super_admin", isActive: true });
      const change = round % 2 === 0 ? { role: "support" as const } : { isActive: false };
      const results = await Promise.allSettled([
        updateAdmin(actor(a!), { id: String(b!._id), ...change }),
        updateAdmin(actor(b!), { id: String(a!._id), ...change }),
      ]);
      const passed = results.filter((r) => r.status === "fulfilled").length;
      expect(passed, `round ${round}`).toBeLessThanOrEqual(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409 });
      expect(await Admin.countDocuments({ role: "super_admin", isActive: true }), `round ${round}`).toBeGreaterThanOrEqual(1);
      // Both may be refused when they count at the same moment (each undoes its own write); what
      // a refusal leaves behind must never block the next change: one demotion alone passes.
      if (passed === 0) {
        expect(await Admin.countDocuments({ role: "super_admin", isActive: true }), `round ${round}`).toBe(2);
        await updateAdmin(actor(a!), { id: String(b!._id), ...change });
      }
      expect(await Admin.countDocuments({ role: "super_admin", isActive: true }), `round ${round}`).toBe(1);
    }
  });
});
