import fc from "fast-check";
import mongoose, { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import {
  applyEntry,
  credit,
  debit,
  hold,
  IdempotencyConflictError,
  InsufficientCoinsError,
  ledgerSum,
  reconcileLedger,
  releaseHold,
  setBalance,
  settleHold,
} from "./ledger";
import { LedgerEntry } from "./models/ledger-entry";
import { User } from "./models/user";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/ledger_unit"));
  await Promise.all([User.createIndexes(), LedgerEntry.createIndexes()]);
});

afterAll(async () => {
  await mongoose.disconnect();
});

let seq = 0;
async function newUser(coins = 0): Promise<Types.ObjectId> {
  seq += 1;
  const user = await User.create({ phone: `+20${Date.now()}${seq}`, passwordHash: "x" });
  if (coins) await credit(user._id, coins, `seed:${String(user._id)}`, "credit", "seed");
  return user._id;
}

async function balance(id: Types.ObjectId): Promise<number> {
  return (await User.findById(id).lean<{ coins: number }>())!.coins;
}

describe("ledger", () => {
  it("refuses a debit that would take the balance below zero, and records why", async () => {
    const id = await newUser(5);
    await expect(debit(id, 6, `k:${String(id)}`, "text")).rejects.toMatchObject({ needed: 6, available: 5 });
    expect(await balance(id)).toBe(5);
    expect(await ledgerSum(id)).toBe(5);
  });

  it("applies the same key once, answers replays with the first result, and rejects a reused key", async () => {
    const id = await newUser(100);
    const first = await debit(id, 10, "same-key-" + String(id), "image");
    const again = await debit(id, 10, "same-key-" + String(id), "image");
    expect(again).toMatchObject({ id: first.id, replayed: true, balanceAfter: 90 });
    expect(await balance(id)).toBe(90);
    await expect(debit(id, 11, "same-key-" + String(id), "image")).rejects.toBeInstanceOf(IdempotencyConflictError);
    const failedKey = "short-" + String(id);
    await expect(debit(id, 1000, failedKey, "video")).rejects.toBeInstanceOf(InsufficientCoinsError);
    await expect(debit(id, 1000, failedKey, "video")).rejects.toBeInstanceOf(InsufficientCoinsError);
  });

  it("lets exactly min(N, M) of N concurrent debits of 1 through against a balance of M", async () => {
    const id = await newUser(37);
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => debit(id, 1, `c:${String(id)}:${i}`, "text")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(37);
    expect(await balance(id)).toBe(0);
    expect(await ledgerSum(id)).toBe(0);
  });

  it("keeps balance == sum of applied entries and never negative over random operation sequences", async () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant("debit" as const), n: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ t: fc.constant("credit" as const), n: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ t: fc.constant("set" as const), n: fc.integer({ min: 0, max: 100 }) }),
      fc.record({ t: fc.constant("hold" as const), n: fc.integer({ min: 1, max: 40 }), release: fc.boolean() }),
      fc.record({ t: fc.constant("replay" as const), n: fc.integer({ min: 1, max: 40 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const id = await newUser();
        let expected = 0;
        let lastKey: string | null = null;
        let lastAmount = 0;
        for (const [i, o] of ops.entries()) {
          const key = `p:${String(id)}:${i}`;
          if (o.t === "debit" || o.t === "hold") {
            try {
              if (o.t === "debit") await debit(id, o.n, key, "text");
              else await hold({ userId: id, coins: o.n, key, feature: "image", queue: "image", jobId: key });
              expected -= o.n;
              lastKey = o.t === "debit" ? key : lastKey;
              lastAmount = o.t === "debit" ? o.n : lastAmount;
              if (o.t === "hold") {
                if (o.release) {
                  await releaseHold(key, "test");
                  await releaseHold(key, "test twice");
                  expected += o.n;
                } else await settleHold(key);
              }
            } catch (error) {
              expect(error).toBeInstanceOf(InsufficientCoinsError);
              expect(o.n).toBeGreaterThan(expected);
            }
          } else if (o.t === "credit") {
            await credit(id, o.n, key, "credit", "test");
            expected += o.n;
          } else if (o.t === "set") {
            await setBalance(id, o.n, "admin_set", "test", "admin:test", key);
            expected = o.n;
          } else if (lastKey) {
            await debit(id, lastAmount, lastKey, "text");
          }
          const coins = await balance(id);
          expect(coins).toBe(expected);
          expect(coins).toBeGreaterThanOrEqual(0);
        }
        expect(await ledgerSum(id)).toBe(await balance(id));
      }),
      { numRuns: 25 },
    );
  });

  it("releases a hold once and not after it settled", async () => {
    const id = await newUser(50);
    await hold({ userId: id, coins: 20, key: `h1:${String(id)}`, feature: "image", queue: "image", jobId: "j1" });
    expect(await settleHold(`h1:${String(id)}`)).toBe(true);
    expect(await releaseHold(`h1:${String(id)}`, "too late")).toBeNull();
    await hold({ userId: id, coins: 20, key: `h2:${String(id)}`, feature: "image", queue: "image", jobId: "j2" });
    const released = await Promise.all([releaseHold(`h2:${String(id)}`, "a"), releaseHold(`h2:${String(id)}`, "b")]);
    expect(released.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect(await balance(id)).toBe(30);
    expect(await LedgerEntry.countDocuments({ userId: id, kind: "release" })).toBe(1);
  });
});

describe("crash recovery", () => {
  it("marks an entry applied when the process died after the balance changed (step 2)", async () => {
    const id = await newUser(40);
    const entry = await LedgerEntry.create({
      userId: id,
      key: `crash2:${String(id)}`,
      kind: "debit",
      amount: -15,
      state: "pending",
    });
    await User.updateOne({ _id: id }, { $inc: { coins: -15 }, $push: { pendingLedger: entry._id } });
    const old = new Date(Date.now() + 10 * 60_000);
    const report = await reconcileLedger(old);
    expect(report.markedApplied).toBeGreaterThanOrEqual(1);
    expect((await LedgerEntry.findById(entry._id).lean<{ state: string }>())!.state).toBe("applied");
    expect((await User.findById(id).lean<{ pendingLedger: unknown[] }>())!.pendingLedger).toHaveLength(0);
    expect(await ledgerSum(id)).toBe(await balance(id));
  });

  it("marks an entry failed when the process died before the balance changed (step 1)", async () => {
    const id = await newUser(40);
    const entry = await LedgerEntry.create({
      userId: id,
      key: `crash1:${String(id)}`,
      kind: "debit",
      amount: -15,
      state: "pending",
    });
    await reconcileLedger(new Date(Date.now() + 10 * 60_000));
    expect((await LedgerEntry.findById(entry._id).lean<{ state: string }>())!.state).toBe("failed");
    expect(await balance(id)).toBe(40);
    expect(await ledgerSum(id)).toBe(40);
  });

  it("pulls the marker left when the process died after marking the entry applied (step 3)", async () => {
    const id = await newUser(40);
    const applied = await applyEntry({ userId: id, key: `crash3:${String(id)}`, kind: "debit", amount: -5 });
    await User.updateOne({ _id: id }, { $push: { pendingLedger: new Types.ObjectId(applied.id) } });
    await reconcileLedger();
    expect((await User.findById(id).lean<{ pendingLedger: unknown[] }>())!.pendingLedger).toHaveLength(0);
    expect(await balance(id)).toBe(35);
  });

  it("finishes a release that died half-way, exactly once", async () => {
    const id = await newUser(40);
    const key = `crash-release:${String(id)}`;
    await hold({ userId: id, coins: 10, key, feature: "video", queue: "video", jobId: "j" });
    await LedgerEntry.updateOne({ key }, { holdState: "releasing" });
    const report = await reconcileLedger(new Date(Date.now() + 10 * 60_000));
    expect(report.releasesFinished).toBe(1);
    await reconcileLedger(new Date(Date.now() + 10 * 60_000));
    expect(await balance(id)).toBe(40);
    expect(await ledgerSum(id)).toBe(40);
  });
});
