import fc from "fast-check";
import type { Types } from "mongoose";
import { describe, expect, it } from "vitest";
import { LedgerEntry } from "../models/ledger-entry";
import { User } from "../models/user";
import {
  credit,
  DailyCapError,
  debit,
  forgetHeads,
  hold,
  IdempotencyConflictError,
  InsufficientCoinsError,
  ledgerSum,
  releaseHold,
  setBalance,
  settleHold,
  spendDayOf,
} from "./index";
import { balance, expectWholeChain, newUser, useLedgerDatabase } from "./test-support";

useLedgerDatabase();

describe("ledger", () => {
  it("refuses a debit that would take the balance below zero, and writes nothing", async () => {
    const id = await newUser(5);
    await expect(debit(id, 6, `k:${String(id)}`, "text")).rejects.toMatchObject({ needed: 6, available: 5 });
    expect(await balance(id)).toBe(5);
    expect(await LedgerEntry.countDocuments({ userId: id })).toBe(1);
    await expectWholeChain(id);
  });

  it("applies the same key once, answers replays with the first result, and rejects a reused key", async () => {
    const id = await newUser(100);
    const first = await debit(id, 10, "same-key-" + String(id), "image");
    const again = await debit(id, 10, "same-key-" + String(id), "image");
    expect(again).toMatchObject({ id: first.id, replayed: true, balanceAfter: 90 });
    expect(await balance(id)).toBe(90);
    await expect(debit(id, 11, "same-key-" + String(id), "image")).rejects.toBeInstanceOf(IdempotencyConflictError);
    await expect(credit(id, 10, "same-key-" + String(id), "credit", "x")).rejects.toBeInstanceOf(IdempotencyConflictError);
    const failedKey = "short-" + String(id);
    await expect(debit(id, 1000, failedKey, "video")).rejects.toBeInstanceOf(InsufficientCoinsError);
    await expect(debit(id, 1000, failedKey, "video")).rejects.toBeInstanceOf(InsufficientCoinsError);
    await expectWholeChain(id);
  });

  it("answers the retry of an applied charge with its replay, though the balance no longer covers it", async () => {
    const id = await newUser(30);
    const key = `retry-poor:${String(id)}`;
    await debit(id, 20, key, "text");
    await debit(id, 5, `${key}:other`, "text");
    expect(await debit(id, 20, key, "text")).toMatchObject({ replayed: true, balanceAfter: 10 });
    expect(await balance(id)).toBe(5);
  });

  it("lets exactly min(N, M) of N concurrent debits of 1 through against a balance of M", async () => {
    const id = await newUser(37);
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => debit(id, 1, `c:${String(id)}:${i}`, "text")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(37);
    expect(results.filter((r) => r.status === "rejected").every((r) => r.reason instanceof InsufficientCoinsError)).toBe(true);
    expect(await balance(id)).toBe(0);
    await expectWholeChain(id);
  });

  it("keeps balance == sum of entries, a whole chain and never negative over random operation sequences", async () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant("debit" as const), n: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ t: fc.constant("credit" as const), n: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ t: fc.constant("set" as const), n: fc.integer({ min: 0, max: 100 }) }),
      fc.record({ t: fc.constant("hold" as const), n: fc.integer({ min: 1, max: 40 }), release: fc.boolean() }),
      fc.record({ t: fc.constant("replay" as const), n: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ t: fc.constant("forget" as const), n: fc.constant(0) }),
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
              if (o.t === "hold" && o.release) {
                expect(await releaseHold(key, "test")).not.toBeNull();
                expect(await releaseHold(key, "test twice")).toBeNull();
                expected += o.n;
              } else if (o.t === "hold") {
                expect(await settleHold(key)).toBe(true);
                expect(await settleHold(key)).toBe(false);
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
          } else if (o.t === "forget") {
            forgetHeads(); // another process's view: nothing remembered
          } else if (lastKey) {
            await debit(id, lastAmount, lastKey, "text");
          }
          const coins = await balance(id);
          expect(coins).toBe(expected);
          expect(coins).toBeGreaterThanOrEqual(0);
        }
        await expectWholeChain(id);
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
    expect(released.filter(Boolean)).toHaveLength(1);
    expect(await settleHold(`h2:${String(id)}`)).toBe(false);
    expect(await balance(id)).toBe(30);
    expect(await LedgerEntry.countDocuments({ userId: id, kind: "release" })).toBe(1);
    await expectWholeChain(id);
  });

  it("sets a balance from the head it reads, once per key, and writes nothing when it is already there", async () => {
    const id = await newUser(70);
    expect(await setBalance(id, 70, "admin_set", "same", "admin:test")).toBeNull();
    const reset = await setBalance(id, 0, "reset", "renewal failed", "scheduler", `reset:${String(id)}`);
    expect(reset).toMatchObject({ amount: -70, balanceAfter: 0 });
    await credit(id, 25, `after-reset:${String(id)}`, "credit", "bought");
    // The same reset again (a retried schedule run) is the first one, not a second reset of the new coins.
    expect(await setBalance(id, 0, "reset", "renewal failed", "scheduler", `reset:${String(id)}`)).toMatchObject({
      replayed: true,
      amount: -70,
    });
    expect(await balance(id)).toBe(25);
    await expectWholeChain(id);
  });
});

describe("daily spending cap", () => {
  const spending = async (id: Types.ObjectId) => (await User.findById(id).lean<{ spendDay?: string; spentToday?: number }>())!;

  it("refuses the charge that would pass the cap, counts only applied spending, and replays the refusal", async () => {
    const id = await newUser(500);
    await debit(id, 60, `cap-a:${String(id)}`, "text", "", 100);
    const refused = debit(id, 50, `cap-b:${String(id)}`, "text", "", 100);
    await expect(refused).rejects.toBeInstanceOf(DailyCapError);
    await expect(refused).rejects.toMatchObject({ cap: 100, spent: 60, needed: 50 });
    // The same key asked again answers the same refusal, not a charge.
    await expect(debit(id, 50, `cap-b:${String(id)}`, "text", "", 100)).rejects.toMatchObject({ cap: 100, spent: 60 });
    await debit(id, 40, `cap-c:${String(id)}`, "text", "", 100);
    expect(await spending(id)).toMatchObject({ spendDay: spendDayOf(), spentToday: 100 });
    expect(await balance(id)).toBe(400);
    expect(await ledgerSum(id)).toBe(400);
    // Insufficient coins still reads as such under a cap.
    await expect(debit(id, 1000, `cap-d:${String(id)}`, "text", "", 5000)).rejects.toBeInstanceOf(InsufficientCoinsError);
  });

  it("lets exactly the cap through when forty charges race for it", async () => {
    const id = await newUser(1000);
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        hold({
          userId: id,
          coins: 7,
          key: `race:${String(id)}:${i}`,
          feature: "image",
          queue: "image",
          jobId: `j${i}`,
          dailyCap: 50,
        }),
      ),
    );
    const passed = results.filter((r) => r.status === "fulfilled").length;
    expect(passed).toBe(7); // 7 × 7 = 49 ≤ 50 < 56
    expect(
      results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason instanceof DailyCapError),
    ).toBe(true);
    expect(await spending(id)).toMatchObject({ spentToday: 49 });
    expect(await balance(id)).toBe(1000 - 49);
    await expectWholeChain(id);
  });

  it("starts a new day's count from zero, and a released hold gives that day's allowance back", async () => {
    const id = await newUser(300);
    await LedgerEntry.updateOne({ userId: id, seq: 1 }, { spendDay: "2000-01-01", spentToday: 999 });
    await User.updateOne({ _id: id }, { spendDay: "2000-01-01", spentToday: 999 });
    forgetHeads();
    const key = `day:${String(id)}`;
    await hold({ userId: id, coins: 30, key, feature: "video", queue: "video", jobId: "v", dailyCap: 40 });
    expect(await spending(id)).toMatchObject({ spendDay: spendDayOf(), spentToday: 30 });
    await expect(
      hold({ userId: id, coins: 20, key: `${key}:2`, feature: "video", queue: "video", jobId: "v2", dailyCap: 40 }),
    ).rejects.toBeInstanceOf(DailyCapError);
    await releaseHold(key, "job failed");
    expect(await spending(id)).toMatchObject({ spentToday: 0 });
    await hold({ userId: id, coins: 20, key: `${key}:3`, feature: "video", queue: "video", jobId: "v3", dailyCap: 40 });
    expect(await balance(id)).toBe(280);
    await expectWholeChain(id);
  });

  it("does not give back a past day's allowance when a hold from that day is released", async () => {
    const id = await newUser(100);
    const key = `old:${String(id)}`;
    await hold({ userId: id, coins: 10, key, feature: "image", queue: "image", jobId: "o" });
    await LedgerEntry.updateOne({ key }, { spendDay: "2000-01-01" });
    await releaseHold(key, "job failed");
    expect(await spending(id)).toMatchObject({ spendDay: spendDayOf(), spentToday: 10 });
    expect(await balance(id)).toBe(100);
  });
});
