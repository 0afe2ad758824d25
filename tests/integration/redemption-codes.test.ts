/**
 * Redemption codes on the running stack: batches made by an administrator with coins:grant, codes
 * shown once and stored hashed, each use credited once even when 100 redemptions of one code
 * arrive together, and every refusal with its own code.
 */
import { describe, expect, it } from "vitest";
import { LedgerEntry, RedemptionCode, User, ledgerSum } from "@storefront/shared/server";
import { hashCode } from "../../api/src/services/redemptions";
import { Client, newUser } from "../support/client";
import { adminWithRole, put, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

const CODES = "/admin/redemption-codes.php";
const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

async function batch(fields: Record<string, unknown>): Promise<{ id: string; codes: string[] }> {
  const admin = await superAdmin();
  const res = await admin.post(CODES, { label: "Launch", count: 3, coins: 25, usesPerCode: 1, expiresAt: inAWeek(), ...fields });
  expect(res.status).toBe(201);
  return { id: res.body.batch.id, codes: res.body.codes };
}

const coinsOf = async (id: string) => (await User.findById(id, { coins: 1 }).lean<{ coins: number }>())!.coins;
const redeem = (client: Client, code: unknown) => client.post("/wallet/redeem.php", { code });

describe("redemption codes", () => {
  it("makes long grouped codes, stores only their hashes, and credits a redemption once", async () => {
    const { id: batchId, codes } = await batch({ count: 5 });
    expect(codes).toHaveLength(5);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/u);
    expect(new Set(codes).size).toBe(5);
    const stored = await RedemptionCode.find({ batchId }).lean();
    expect(stored.map((c) => c.hash).sort()).toEqual(codes.map((c) => hashCode(c.replace(/-/gu, ""))).sort());
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.replace(/-/gu, ""));

    const { client, id } = await newUser();
    // Typed loosely: lower case, spaces instead of dashes.
    const res = await redeem(client, ` ${codes[0]!.toLowerCase().replace(/-/gu, " ")} `);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, coinsAdded: 25, coins: 25 });
    expect((await redeem(client, codes[0])).body.code).toBe("code_already_redeemed");
    expect(await coinsOf(id)).toBe(25);
    expect(await ledgerSum(id)).toBe(25);

    const other = await newUser();
    expect((await redeem(other.client, codes[0])).body.code).toBe("code_used_up");

    const admin = await superAdmin();
    const listed = await admin.get(`${CODES}?batchId=${batchId}`);
    expect(listed.body.batches.find((b: { id: string }) => b.id === batchId)).toMatchObject({
      redeemed: 1,
      remaining: 4,
      count: 5,
    });
    expect(listed.body.redemptions).toEqual([expect.objectContaining({ user_id: id, coins: 25 })]);
  });

  it("lets exactly one of 100 concurrent redemptions of a one-use code through, and five of a five-use code", async () => {
    for (const uses of [1, 5]) {
      const { codes } = await batch({ count: 1, usesPerCode: uses, coins: 10 });
      const users = await Promise.all(Array.from({ length: 100 }, () => newUser()));
      const answers = await Promise.all(users.map((u) => redeem(u.client, codes[0])));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(uses);
      expect(answers.filter((a) => a.status !== 200).every((a) => a.body.code === "code_used_up")).toBe(true);
      const credited = await LedgerEntry.countDocuments({
        userId: { $in: users.map((u) => u.id) },
        kind: "credit",
      });
      expect(credited).toBe(uses);
    }
  });

  it("credits once when one user sends the same code 20 times at once", async () => {
    const { codes } = await batch({ count: 1, usesPerCode: 10, coins: 30 });
    const { client, id } = await newUser();
    const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(client, codes[0])));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await coinsOf(id)).toBe(30);
  });

  it("refuses expired, disabled, unknown and malformed codes, each with its code", async () => {
    const { id: batchId, codes } = await batch({ count: 2 });
    const { client } = await newUser();
    const admin = await superAdmin();
    expect((await put(admin, CODES, { id: batchId, enabled: false })).status).toBe(200);
    expect((await redeem(client, codes[0])).body.code).toBe("code_invalid");
    expect((await put(admin, CODES, { id: batchId, enabled: true })).status).toBe(200);
    await RedemptionCode.db
      .collection("redemptionbatches")
      .updateOne(
        { _id: new (await import("mongoose")).Types.ObjectId(batchId) },
        { $set: { expiresAt: new Date(Date.now() - 1000) } },
      );
    expect((await redeem(client, codes[1])).body.code).toBe("code_expired");
    expect((await redeem(client, "ABCDE-FGHJK-MNPQR-STVWX")).body.code).toBe("code_invalid");
    for (const code of [undefined, "", "short", 12345, { $gt: "" }, "ABCDE-FGHJK-MNPQR-STVW!"]) {
      const res = await redeem(client, code);
      expect(res.status, JSON.stringify(code)).toBe(400);
      expect(res.body.error).toMatch(/code/u);
    }
    expect((await redeem(new Client(), codes[0])).status).toBe(401);
  });

  it("limits attempts per user", async () => {
    const { client } = await newUser();
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push((await redeem(client, "ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ")).status);
    expect(answers.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(answers.slice(20).every((s) => s === 429)).toBe(true);
  });

  it("is for administrators who may grant coins, with bad input named", async () => {
    const support = await adminWithRole("support");
    expect((await support.get(CODES)).status).toBe(403);
    expect((await support.post(CODES, { label: "x", count: 1, coins: 1, expiresAt: inAWeek() })).status).toBe(403);
    const admin = await superAdmin();
    for (const [body, field] of [
      [{ label: "", count: 1, coins: 1, expiresAt: inAWeek() }, /label/u],
      [{ label: "x", count: 0, coins: 1, expiresAt: inAWeek() }, /count/u],
      [{ label: "x", count: 1001, coins: 1, expiresAt: inAWeek() }, /count/u],
      [{ label: "x", count: 1, coins: 2_000_000, expiresAt: inAWeek() }, /coins/u],
      [{ label: "x", count: 1, coins: 1, usesPerCode: 0, expiresAt: inAWeek() }, /usesPerCode/u],
      [{ label: "x", count: 1, coins: 1, expiresAt: "2020-01-01T00:00:00Z" }, /expiresAt/u],
      [{ label: "x", count: 1, coins: 1, expiresAt: "soon" }, /expiresAt/u],
    ] as const) {
      const res = await admin.post(CODES, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(field);
    }
    expect((await new Client().get(CODES)).status).toBe(401);
  });
});
