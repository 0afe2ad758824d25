import fc from "fast-check";
import mongoose, { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { inject } from "vitest";
import {
  applyEntry,
  conversationCosts,
  credit,
  DailyCapError,
  debit,
  EXECUTOR_DEADLINE_MS,
  fileUnderConversation,
  flushTidying,
  hold,
  IdempotencyConflictError,
  InsufficientCoinsError,
  LedgerInProgressError,
  ledgerSum,
  markedEntries,
  RECONCILE_AFTER_MS,
  reconcileLedger,
  releaseHold,
  setBalance,
  setTidyDelay,
  settleHold,
  spendDayOf,
} from "./ledger";
import { ConversationFiling } from "./models/conversation-filing";
import { LedgerEntry } from "./models/ledger-entry";
import { User } from "./models/user";
import { failFirstWrite, loseExecutorWrites, writeOnceLookedFor } from "../../../tests/support/ledger-writes";
import { endedProcessId } from "../../../tests/support/processes";
import { PROCESS_ID } from "./process-identity";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/ledger_unit"));
  await Promise.all([User.createIndexes(), LedgerEntry.createIndexes(), ConversationFiling.createIndexes()]);
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

/** The entries whose marker is still on the user. */
/** Waits (5 s at most) until the entry under `key` has these fields: a write owed is tried again every second. */
const untilEntry = (key: string, fields: Record<string, unknown>) =>
  vi.waitFor(async () => expect(await LedgerEntry.findOne({ key }).lean()).toMatchObject(fields), {
    timeout: 5000,
    interval: 50,
  });

async function markers(id: Types.ObjectId): Promise<Types.ObjectId[]> {
  return markedEntries((await User.findById(id).lean<Parameters<typeof markedEntries>[0]>())!);
}

async function balance(id: Types.ObjectId): Promise<number> {
  return (await User.findById(id).lean<{ coins: number }>())!.coins;
}

describe("ledger", () => {
  it("refunds a hold whose first release died before its commit, once, under the next key", async () => {
    const id = await newUser(50);
    const holdKey = `hold:chat:${String(id)}:died-releasing`;
    await hold({ userId: id, coins: 20, key: holdKey, feature: "text", queue: "chat", jobId: "j-died" });
    // What a worker killed between the refund's insert and its commit leaves, once the reconciler
    // has declared the entry abandoned: the hold releasing, its refund failed, no coin moved.
    await LedgerEntry.updateOne({ key: holdKey }, { holdState: "releasing" });
    await LedgerEntry.create({
      userId: id,
      key: `release:${holdKey}`,
      kind: "release",
      amount: 20,
      state: "failed",
      failure: "abandoned",
    });
    const refund = await releaseHold(holdKey, "released again", "reconciler");
    expect(refund).toMatchObject({ key: `release:${holdKey}:retry:1`, amount: 20, balanceAfter: 50, replayed: false });
    expect(await LedgerEntry.findOne({ key: holdKey }).lean()).toMatchObject({ holdState: "released" });
    expect(await releaseHold(holdKey, "and again", "reconciler")).toBeNull();
    expect(await balance(id)).toBe(50);
    expect(await ledgerSum(id)).toBe(50);
  });

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
      fc.record({
        t: fc.constant("hold" as const),
        n: fc.integer({ min: 1, max: 40 }),
        release: fc.boolean(),
        fresh: fc.boolean(),
      }),
      fc.record({ t: fc.constant("replay" as const), n: fc.integer({ min: 1, max: 40 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const id = await newUser();
        let expected = 0;
        let lastKey: string | null = null;
        let lastAmount = 0;
        const recorded: Promise<void>[] = [];
        for (const [i, o] of ops.entries()) {
          const key = `p:${String(id)}:${i}`;
          let held: Awaited<ReturnType<typeof hold>> | undefined;
          if (o.t === "debit" || o.t === "hold") {
            try {
              if (o.t === "debit") await debit(id, o.n, key, "text");
              else {
                // A fresh hold is released without waiting for its entry's write, as a quick worker may.
                held = await hold({
                  userId: id,
                  coins: o.n,
                  key,
                  feature: "image",
                  queue: "image",
                  jobId: key,
                  fresh: o.fresh,
                });
                if (held.recorded) recorded.push(held.recorded);
              }
              expected -= o.n;
              lastKey = o.t === "debit" ? key : lastKey;
              lastAmount = o.t === "debit" ? o.n : lastAmount;
              if (o.t === "hold") {
                if (o.release) {
                  await releaseHold(key, "test");
                  await releaseHold(key, "test twice");
                  expected += o.n;
                } else {
                  // A settle that reaches a fresh hold before its entry misses it (a worker waits, settleLate).
                  if (!(await settleHold(key))) {
                    expect(o.fresh).toBe(true);
                    await held?.recorded;
                    expect(await settleHold(key)).toBe(true);
                  }
                  expect(await settleHold(key)).toBe(false);
                }
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
        await Promise.all(recorded);
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

describe("markers", () => {
  it("takes an applied entry's marker off with the user's next commit, and the rest in one batch", async () => {
    const id = await newUser(40);
    // No batch may run in between (another test's queued marker could start its timer): only the commits tidy here.
    await flushTidying();
    setTidyDelay(60_000);
    onTestFinished(() => setTidyDelay(1000));
    const first = await debit(id, 1, `m1:${String(id)}`, "text");
    expect((await markers(id)).map(String)).toEqual([first.id]);
    // A refused commit removes nothing: its update did not happen, so the marker waits for the batch.
    await expect(debit(id, 1000, `m-short:${String(id)}`, "text")).rejects.toBeInstanceOf(InsufficientCoinsError);
    expect((await markers(id)).map(String)).toEqual([first.id]);
    const second = await debit(id, 2, `m2:${String(id)}`, "text");
    expect((await markers(id)).map(String)).toEqual([second.id]);
    await flushTidying();
    expect(await markers(id)).toHaveLength(0);
    expect(await ledgerSum(id)).toBe(37);
  });

  it("reads the list of markers earlier versions kept: a committed entry is recovered, an applied one's marker goes", async () => {
    const id = await newUser(40);
    const applied = await debit(id, 5, `legacy-applied:${String(id)}`, "text");
    await flushTidying();
    const committed = await LedgerEntry.create({ userId: id, key: `legacy-pending:${String(id)}`, kind: "debit", amount: -15 });
    await User.collection.updateOne(
      { _id: id },
      { $inc: { coins: -15 }, $set: { pendingLedger: [new Types.ObjectId(applied.id), committed._id] } },
    );
    const report = await reconcileLedger(new Date(Date.now() + 10 * 60_000));
    expect(report.markedApplied).toBeGreaterThanOrEqual(1);
    expect((await LedgerEntry.findById(committed._id).lean<{ state: string }>())!.state).toBe("applied");
    expect(await markers(id)).toHaveLength(0);
    expect(await ledgerSum(id)).toBe(20);
    expect(await balance(id)).toBe(20);
  });
});

describe("fresh entries (committed first, written after)", () => {
  it("commits a fresh hold, writes its entry applied after, and tidies the marker that described it", async () => {
    const id = await newUser(30);
    const key = `fresh:${String(id)}`;
    await flushTidying();
    setTidyDelay(60_000);
    onTestFinished(() => setTidyDelay(1000));
    const held = await hold({ userId: id, coins: 12, key, feature: "text", queue: "chat", jobId: "j-fresh", fresh: true });
    expect(held).toMatchObject({ amount: -12, balanceAfter: 18, replayed: false });
    await held.recorded;
    const entry = await LedgerEntry.findOne({ key }).lean();
    expect(entry).toMatchObject({
      _id: new Types.ObjectId(held.id),
      state: "applied",
      holdState: "held",
      balanceAfter: 18,
      kind: "hold",
    });
    expect(entry?.executor ?? null).toBeNull();
    // Until it is tidied, the marker describes the entry it stands for.
    const user = await User.findById(id).lean<{ pendingEntries: Record<string, { key: string; amount: number }> }>();
    expect(user?.pendingEntries[held.id]).toMatchObject({ key, amount: -12 });
    await flushTidying();
    expect(await markers(id)).toHaveLength(0);
    expect(await settleHold(key)).toBe(true);
    expect(await ledgerSum(id)).toBe(await balance(id));
  });

  it("refuses a fresh charge past the balance, moves nothing and records why", async () => {
    const id = await newUser(30);
    const key = `fresh-short:${String(id)}`;
    await expect(
      hold({ userId: id, coins: 31, key, feature: "text", queue: "chat", jobId: "j-short", fresh: true }),
    ).rejects.toMatchObject({
      needed: 31,
      available: 30,
    });
    expect(await LedgerEntry.findOne({ key }).lean()).toMatchObject({ state: "failed", failure: "insufficient" });
    await flushTidying();
    expect(await markers(id)).toHaveLength(0);
    expect(await balance(id)).toBe(30);
    expect(await ledgerSum(id)).toBe(30);
  });

  it("lets exactly min(N, M) of N concurrent fresh holds of 1 through against a balance of M", async () => {
    const id = await newUser(37);
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        hold({
          userId: id,
          coins: 1,
          key: `fc:${String(id)}:${i}`,
          feature: "text",
          queue: "chat",
          jobId: `fc${i}`,
          fresh: true,
        }),
      ),
    );
    const held = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(held).toHaveLength(37);
    await Promise.all(held.map((h) => h.recorded));
    expect(await balance(id)).toBe(0);
    expect(await ledgerSum(id)).toBe(0);
  });

  it("writes a fresh entry from its marker when its executor stopped before writing it, and not while it may still", async () => {
    // The executor's own writes of these entries never arrive; the reconciler's (marked recovered) do.
    const lostKeys = loseExecutorWrites();
    const committedOnly = async (coins: number, name: string) => {
      const id = await newUser(30);
      const key = `fresh-${name}:${String(id)}`;
      lostKeys.add(key);
      const held = await hold({ userId: id, coins, key, feature: "text", queue: "chat", jobId: `j-${name}`, fresh: true });
      await held.recorded;
      expect(await LedgerEntry.exists({ key })).toBeNull();
      expect(await balance(id)).toBe(30 - coins);
      return { id, key, entryId: held.id };
    };

    // Its executor (this process) still runs and the entry is young: it is left to the executor.
    const young = await committedOnly(9, "young");
    expect((await reconcileLedger()).written).toBe(0);
    expect(await LedgerEntry.exists({ key: young.key })).toBeNull();
    // Past the age it is written, whoever the executor.
    expect((await reconcileLedger(new Date(Date.now() + RECONCILE_AFTER_MS + 1000))).written).toBeGreaterThanOrEqual(1);

    // Its executor has ended: written at once.
    const orphan = await committedOnly(7, "orphan");
    await User.collection.updateOne(
      { _id: orphan.id },
      { $set: { [`pendingEntries.${orphan.entryId}.executor`]: await endedProcessId() } },
    );
    expect((await reconcileLedger()).written).toBe(1);

    const spentToday = async (id: Types.ObjectId) => (await User.findById(id).lean<{ spentToday?: number }>())?.spentToday ?? 0;
    for (const { id, key, entryId } of [young, orphan]) {
      const entry = await LedgerEntry.findOne({ key }).lean();
      expect(entry).toMatchObject({ _id: new Types.ObjectId(entryId), state: "applied", holdState: "held", kind: "hold" });
      expect(entry?.details).toMatch(/\[recovered\]$/u);
      // The day the spend counted toward comes through, so a release gives that day's allowance back.
      expect(entry?.spendDay).toBe(spendDayOf());
      expect(await spentToday(id)).toBe(30 - (await balance(id)));
      expect(await markers(id)).toHaveLength(0);
      expect(await ledgerSum(id)).toBe(await balance(id));
      // No job was queued for it: the sweeper's release gives the coins back, once.
      expect(await releaseHold(key, "never queued")).not.toBeNull();
      expect(await balance(id)).toBe(30);
      expect(await spentToday(id)).toBe(0);
    }
  });

  it("writes a fresh entry once when its executor and the reconciler write it at the same time", async () => {
    const id = await newUser(30);
    const key = `fresh-both:${String(id)}`;
    const insert = LedgerEntry.collection.insertOne.bind(LedgerEntry.collection);
    let letThrough!: () => void;
    const reconciled = new Promise<void>((resolve) => (letThrough = resolve));
    // The executor's write is slow: it arrives after the reconciler's, as a duplicate of the same id.
    const slow = vi.spyOn(LedgerEntry.collection, "insertOne").mockImplementation(async (doc, options) => {
      if (doc.key === key && !String(doc.details).endsWith("[recovered]")) await reconciled;
      return insert(doc, options);
    });
    onTestFinished(() => slow.mockRestore());
    const held = await hold({ userId: id, coins: 4, key, feature: "text", queue: "chat", jobId: "j-both", fresh: true });
    await User.collection.updateOne({ _id: id }, { $set: { [`pendingEntries.${held.id}.executor`]: await endedProcessId() } });
    expect((await reconcileLedger()).written).toBe(1);
    letThrough();
    await held.recorded;
    expect(await LedgerEntry.countDocuments({ key })).toBe(1);
    await flushTidying();
    expect(await markers(id)).toHaveLength(0);
    expect(await ledgerSum(id)).toBe(26);
    expect(await balance(id)).toBe(26);
  });

  it("tries a failed write of a fresh entry again until it lands", async () => {
    const id = await newUser(30);
    const key = `fresh-retry:${String(id)}`;
    const attempts = failFirstWrite(key);
    const held = await hold({ userId: id, coins: 5, key, feature: "text", queue: "chat", jobId: "j-retry", fresh: true });
    await held.recorded;
    await untilEntry(key, { state: "applied", balanceAfter: 25 });
    expect(attempts()).toBe(2);
    expect(await ledgerSum(id)).toBe(25);
  });

  it("writes a fresh entry whose commit landed though its answer was lost", async () => {
    const id = await newUser(30);
    const key = `fresh-cut:${String(id)}`;
    const update = User.collection.findOneAndUpdate.bind(User.collection);
    const cut = vi.spyOn(User.collection, "findOneAndUpdate").mockImplementation((async (...args: Parameters<typeof update>) => {
      // The update that matches (the commit) lands; its answer does not arrive.
      const result = await update(...args);
      if (result) throw new Error("connection lost");
      return result;
    }) as typeof update);
    onTestFinished(() => cut.mockRestore());
    await expect(
      hold({ userId: id, coins: 6, key, feature: "text", queue: "chat", jobId: "j-cut", fresh: true }),
    ).rejects.toThrow("connection lost");
    cut.mockRestore();
    // The executor looks for its marker and writes the entry it describes, without the reconciler.
    await vi.waitFor(
      async () => expect(await LedgerEntry.findOne({ key }).lean()).toMatchObject({ state: "applied", amount: -6 }),
      {
        timeout: 3000,
        interval: 20,
      },
    );
    expect(await balance(id)).toBe(24);
    expect(await ledgerSum(id)).toBe(24);
    // No job was queued for it: the sweeper's release gives the coins back.
    expect(await releaseHold(key, "never queued")).not.toBeNull();
    expect(await balance(id)).toBe(30);
  });

  it("releases a fresh hold whose entry is still being written, once it is there", async () => {
    const id = await newUser(30);
    const key = `fresh-late:${String(id)}`;
    writeOnceLookedFor(key);
    const held = await hold({ userId: id, coins: 8, key, feature: "text", queue: "chat", jobId: "j-late", fresh: true });
    const refund = await releaseHold(key, "job failed");
    await held.recorded;
    expect(refund).toMatchObject({ amount: 8, balanceAfter: 30 });
    expect(await LedgerEntry.findOne({ key }).lean()).toMatchObject({ holdState: "released" });
    expect(await ledgerSum(id)).toBe(30);
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
    await User.collection.updateOne({ _id: id }, { $inc: { coins: -15 }, $set: { [`pendingEntries.${String(entry._id)}`]: 1 } });
    const old = new Date(Date.now() + 10 * 60_000);
    const report = await reconcileLedger(old);
    expect(report.markedApplied).toBeGreaterThanOrEqual(1);
    expect((await LedgerEntry.findById(entry._id).lean<{ state: string }>())!.state).toBe("applied");
    expect(await markers(id)).toHaveLength(0);
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

  it("finishes a pending entry once its executor has ended, and never one whose executor runs", async () => {
    const endedId = await endedProcessId();
    const id = await newUser(40);
    const pending = (key: string, executor: string | null) =>
      LedgerEntry.create({ userId: id, key: `${key}:${String(id)}`, kind: "debit", amount: -5, state: "pending", executor });
    // Died before its commit, after it, and one still running (this process).
    const beforeCommit = await pending("gone-1", endedId);
    const afterCommit = await pending("gone-2", endedId);
    await User.collection.updateOne(
      { _id: id },
      { $inc: { coins: -5 }, $set: { [`pendingEntries.${String(afterCommit._id)}`]: 1 } },
    );
    const running = await pending("live", PROCESS_ID);
    const state = async (entry: { _id: Types.ObjectId }) =>
      (await LedgerEntry.findById(entry._id).lean<{ state: string }>())!.state;

    const report = await reconcileLedger();
    expect(report).toMatchObject({ markedApplied: 1, markedFailed: 1 });
    expect([await state(beforeCommit), await state(afterCommit), await state(running)]).toEqual(["failed", "applied", "pending"]);
    expect(await LedgerEntry.findById(beforeCommit._id, { executor: 1, executorGoneAt: 1 }).lean()).not.toHaveProperty(
      "executor",
    );
    expect(await balance(id)).toBe(35);
    // The running executor's entry waits for the age, as before.
    await LedgerEntry.deleteOne({ _id: running._id });
    expect(await ledgerSum(id)).toBe(35);
  });

  it("fences an entry it marks failed, so a commit still on its way cannot move the coins", async () => {
    const id = await newUser(40);
    const findOneAndUpdate = User.collection.findOneAndUpdate.bind(User.collection);
    // The executor's commit is held back, as by a slow network, until the reconciler is done.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sent!: () => void;
    const commitSent = new Promise<void>((resolve) => (sent = resolve));
    const spy = vi.spyOn(User.collection, "findOneAndUpdate").mockImplementation((async (
      ...args: Parameters<typeof findOneAndUpdate>
    ) => {
      sent();
      await held;
      return findOneAndUpdate(...args);
    }) as typeof findOneAndUpdate);
    onTestFinished(() => spy.mockRestore());
    const charge = debit(id, 5, `late:${String(id)}`, "text");
    const settled = charge.then(
      () => "applied",
      (error: Error) => error.constructor.name,
    );
    await commitSent;
    // Old enough for the age rule: taken for abandoned while its commit is still on its way.
    const report = await reconcileLedger(new Date(Date.now() + 10 * 60_000));
    expect(report.markedFailed).toBeGreaterThanOrEqual(1);
    release();
    expect(await settled).toBe("LedgerInProgressError");
    spy.mockRestore();
    const entry = await LedgerEntry.findOne({ key: `late:${String(id)}` }).lean<{ state: string }>();
    expect(entry!.state).toBe("failed");
    expect(await balance(id)).toBe(40);
    expect(await ledgerSum(id)).toBe(40);
    // The fence stays a day, far past any commit sent before the executor's deadline, then goes.
    const fences = async () => (await User.collection.findOne({ _id: id }, { projection: { voidEntries: 1 } }))?.voidEntries;
    await reconcileLedger(new Date(Date.now() + 10 * 60_000 + RECONCILE_AFTER_MS + 1000));
    expect(Object.keys((await fences()) ?? {})).toHaveLength(1);
    await reconcileLedger(new Date(Date.now() + 25 * 60 * 60_000));
    expect(await fences()).toEqual({});
  });

  it("sends no commit attempt past the executor's deadline, however long the earlier ones took", async () => {
    const id = await newUser(40);
    const now = performance.now.bind(performance);
    let late = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => now() + late);
    // The first attempt finds nothing to update and takes 25 s (a slow network): the next is not sent.
    const spy = vi.spyOn(User.collection, "findOneAndUpdate").mockImplementation((async () => {
      late = EXECUTOR_DEADLINE_MS + 5_000;
      return null;
    }) as unknown as typeof User.collection.findOneAndUpdate);
    onTestFinished(() => {
      spy.mockRestore();
      clock.mockRestore();
    });
    await expect(debit(id, 5, `deadline:${String(id)}`, "text")).rejects.toBeInstanceOf(LedgerInProgressError);
    expect(spy).toHaveBeenCalledTimes(1);
    const entry = await LedgerEntry.findOne({ key: `deadline:${String(id)}` }).lean<{ state: string; failure: string }>();
    expect(entry).toMatchObject({ state: "failed", failure: "deadline" });
    expect(await balance(id)).toBe(40);
  });

  it("hands an entry over when its commit fails on a lost connection, landed or not, and the reconciler finishes it", async () => {
    const id = await newUser(40);
    const findOneAndUpdate = User.collection.findOneAndUpdate.bind(User.collection);
    const lost = () => Object.assign(new Error("connection 3 to 127.0.0.1:27017 closed"), { name: "MongoNetworkError" });
    // The database never gets the first debit's commit; it applies the second's, whose answer is lost.
    let fault: "refuse" | "lose answer" | null = "refuse";
    const spy = vi.spyOn(User.collection, "findOneAndUpdate").mockImplementation((async (
      ...args: Parameters<typeof findOneAndUpdate>
    ) => {
      if (fault === "refuse") throw lost();
      const result = await findOneAndUpdate(...args);
      if (result && fault === "lose answer") throw lost();
      return result;
    }) as typeof findOneAndUpdate);
    onTestFinished(() => spy.mockRestore());
    await expect(debit(id, 5, `lost-1:${String(id)}`, "text")).rejects.toThrow(/closed/u);
    fault = "lose answer";
    await expect(debit(id, 7, `lost-2:${String(id)}`, "text")).rejects.toThrow(/closed/u);
    const entries = () =>
      LedgerEntry.find({ userId: id, kind: "debit" }, { key: 1, state: 1, executorGoneAt: 1 }).sort({ key: 1 }).lean();
    spy.mockRestore();
    await vi.waitFor(async () => expect((await entries()).every((e) => e.executorGoneAt instanceof Date)).toBe(true));
    expect((await entries()).map((e) => e.state)).toEqual(["pending", "pending"]);

    await reconcileLedger();
    expect((await entries()).map((e) => e.state)).toEqual(["failed", "applied"]);
    expect(await balance(id)).toBe(33);
    expect(await ledgerSum(id)).toBe(33);
  });

  it("pulls the marker left when the process died after marking the entry applied (step 3)", async () => {
    const id = await newUser(40);
    const applied = await applyEntry({ userId: id, key: `crash3:${String(id)}`, kind: "debit", amount: -5 });
    await flushTidying();
    await User.collection.updateOne({ _id: id }, { $set: { [`pendingEntries.${applied.id}`]: 1 } });
    await reconcileLedger();
    expect(await markers(id)).toHaveLength(0);
    expect(await balance(id)).toBe(35);
  });

  it("finishes a release whose process has ended at once, and one whose process runs only after the age", async () => {
    const endedId = await endedProcessId();
    const id = await newUser(40);
    const claim = async (name: string, releaser: string) => {
      const key = `${name}:${String(id)}`;
      await hold({ userId: id, coins: 10, key, feature: "video", queue: "video", jobId: name });
      // What a process killed after claiming the release, before its refund, leaves.
      await LedgerEntry.updateOne({ key }, { holdState: "releasing", releaser });
      return key;
    };
    const gone = await claim("release-gone", endedId);
    const live = await claim("release-live", PROCESS_ID);
    const holdState = async (key: string) => (await LedgerEntry.findOne({ key }).lean<{ holdState: string }>())!.holdState;

    expect((await reconcileLedger()).releasesFinished).toBe(1);
    expect([await holdState(gone), await holdState(live)]).toEqual(["released", "releasing"]);
    expect(await LedgerEntry.findOne({ key: gone }, { releaser: 1 }).lean()).not.toHaveProperty("releaser");
    expect(await balance(id)).toBe(30);
    expect((await reconcileLedger(new Date(Date.now() + 10 * 60_000))).releasesFinished).toBe(1);
    expect(await holdState(live)).toBe("released");
    expect(await balance(id)).toBe(40);
    expect(await ledgerSum(id)).toBe(40);
  });

  it("names the process refunding a hold, and leaves a live one's release to the age", async () => {
    const id = await newUser(40);
    const key = `release-claimed:${String(id)}`;
    await hold({ userId: id, coins: 10, key, feature: "video", queue: "video", jobId: "j-claimed" });
    // The refund's insert is cut off, as by a lost connection: the claim stays.
    const insert = vi.spyOn(LedgerEntry.collection, "insertOne").mockRejectedValueOnce(new Error("connection lost"));
    onTestFinished(() => insert.mockRestore());
    await expect(releaseHold(key, "job failed", "worker")).rejects.toThrow("connection lost");
    expect(await LedgerEntry.findOne({ key }).lean()).toMatchObject({ holdState: "releasing", releaser: PROCESS_ID });
    expect((await reconcileLedger()).releasesFinished).toBe(0);
    expect((await reconcileLedger(new Date(Date.now() + 10 * 60_000))).releasesFinished).toBe(1);
    expect(await balance(id)).toBe(40);
    expect(await ledgerSum(id)).toBe(40);
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
    expect(await ledgerSum(id)).toBe(1000 - 49);
  });

  it("starts a new day's count from zero, and a released hold gives that day's allowance back", async () => {
    const id = await newUser(300);
    await User.updateOne({ _id: id }, { spendDay: "2000-01-01", spentToday: 999 });
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
    expect(await ledgerSum(id)).toBe(280);
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

describe("conversation costs", () => {
  it("sums a conversation's charges less refunds, and files only the user's own unfiled charges", async () => {
    const id = await newUser(200);
    const other = await newUser(200);
    await hold({ userId: id, coins: 5, key: `c1:${String(id)}`, feature: "text", queue: "chat", jobId: `first-${String(id)}` });
    await hold({
      userId: id,
      coins: 7,
      key: `c2:${String(id)}`,
      feature: "text",
      queue: "chat",
      jobId: "j2",
      conversationId: "conv_a",
    });
    await hold({
      userId: id,
      coins: 9,
      key: `c3:${String(id)}`,
      feature: "text",
      queue: "chat",
      jobId: "j3",
      conversationId: "conv_a",
    });
    await releaseHold(`c3:${String(id)}`, "job failed");
    await hold({
      userId: other,
      coins: 11,
      key: `c4:${String(other)}`,
      feature: "text",
      queue: "chat",
      jobId: `theirs-${String(other)}`,
    });
    expect(await fileUnderConversation(id, [`first-${String(id)}`, `theirs-${String(other)}`], "conv_a")).toBe(1);
    expect(await fileUnderConversation(id, [`first-${String(id)}`], "conv_b")).toBe(0);
    const costs = await conversationCosts(id, ["conv_a", "conv_b"]);
    expect(costs.get("conv_a")).toBe(12);
    expect(costs.get("conv_b")).toBeUndefined();
    expect((await conversationCosts(other, ["conv_a"])).get("conv_a")).toBeUndefined();
  });

  it("files a first message's charge whose entry is written after the conversation was saved", async () => {
    // The executor's own writes of these entries fail until the key leaves the set.
    const lostKeys = loseExecutorWrites();
    const heldOnly = async (name: string) => {
      const id = await newUser(50);
      const key = `late-${name}:${String(id)}`;
      const jobId = `late-${name}-${String(id)}`;
      lostKeys.add(key);
      const held = await hold({ userId: id, coins: 6, key, feature: "text", queue: "chat", jobId, fresh: true });
      // The call answers with its entry's write still owed.
      await held.recorded;
      expect(await LedgerEntry.exists({ key })).toBeNull();
      return { id, key, jobId, entryId: held.id };
    };
    const filedUnder = (key: string, conversationId: string) => untilEntry(key, { conversationId });

    // Saved first, then the executor's retry lands.
    const retried = await heldOnly("retry");
    expect(await fileUnderConversation(retried.id, [retried.jobId], "conv_late")).toBe(0);
    lostKeys.delete(retried.key);
    await filedUnder(retried.key, "conv_late");
    expect((await conversationCosts(retried.id, ["conv_late"])).get("conv_late")).toBe(6);

    // Saved first, then the reconciler writes it from its marker (its executor has stopped).
    const recovered = await heldOnly("recovered");
    expect(await fileUnderConversation(recovered.id, [recovered.jobId], "conv_recovered")).toBe(0);
    await User.collection.updateOne(
      { _id: recovered.id },
      { $set: { [`pendingEntries.${recovered.entryId}.executor`]: await endedProcessId() } },
    );
    expect((await reconcileLedger()).written).toBe(1);
    await filedUnder(recovered.key, "conv_recovered");

    // Landing while the save runs, after it looked for the job's entry and before it files: the save files it.
    const between = await heldOnly("between");
    const distinct = LedgerEntry.distinct.bind(LedgerEntry);
    const landsMeanwhile = vi.spyOn(LedgerEntry, "distinct").mockImplementationOnce(((...args: Parameters<typeof distinct>) =>
      distinct(...args).then(async (found: unknown) => {
        lostKeys.delete(between.key);
        await vi.waitFor(async () => expect(await LedgerEntry.exists({ key: between.key })).not.toBeNull(), {
          timeout: 5000,
          interval: 50,
        });
        return found;
      })) as unknown as typeof distinct);
    onTestFinished(() => landsMeanwhile.mockRestore());
    await fileUnderConversation(between.id, [between.jobId], "conv_between");
    await filedUnder(between.key, "conv_between");

    for (const { id } of [retried, recovered, between]) expect(await ledgerSum(id)).toBe(await balance(id));
  });

  it("files a late charge when the whole save runs while its write is on its way", async () => {
    const id = await newUser(30);
    const key = `late-during:${String(id)}`;
    const jobId = `late-during-${String(id)}`;
    // The call answers with its entry's write owed; the retry's insert waits for the whole save.
    const attempts = failFirstWrite(key, async () => {
      expect(await fileUnderConversation(id, [jobId], "conv_during")).toBe(0);
    });
    const held = await hold({ userId: id, coins: 4, key, feature: "text", queue: "chat", jobId, fresh: true });
    await held.recorded;
    await untilEntry(key, { conversationId: "conv_during" });
    expect(attempts()).toBe(2);
    expect(await ledgerSum(id)).toBe(26);
  });

  it("files a refund with its hold when the hold is filed while the refund is being made", async () => {
    const id = await newUser(50);
    const key = `refund-filed:${String(id)}`;
    const jobId = `refund-filed-${String(id)}`;
    await hold({ userId: id, coins: 8, key, feature: "text", queue: "chat", jobId });
    // The release has claimed the hold (no conversation yet) when the save files the job's charges.
    const claim = LedgerEntry.findOneAndUpdate.bind(LedgerEntry);
    const savedMeanwhile = vi.spyOn(LedgerEntry, "findOneAndUpdate").mockImplementationOnce(((
      ...args: Parameters<typeof claim>
    ) => {
      const query = claim(...args);
      const lean = query.lean.bind(query);
      return Object.assign(query, {
        lean: (...leanArgs: Parameters<typeof lean>) =>
          lean(...leanArgs).then(async (found: unknown) => {
            expect(await fileUnderConversation(id, [jobId], "conv_refunded")).toBe(1);
            return found;
          }),
      });
    }) as unknown as typeof claim);
    onTestFinished(() => savedMeanwhile.mockRestore());
    expect(await releaseHold(key, "job failed")).not.toBeNull();
    expect(await LedgerEntry.findOne({ key: `release:${key}` }).lean()).toMatchObject({ conversationId: "conv_refunded" });
    // Charged and refunded: the conversation cost nothing.
    expect((await conversationCosts(id, ["conv_refunded"])).get("conv_refunded")).toBe(0);
    expect(await ledgerSum(id)).toBe(50);
  });

  it("applies the saves' claims again when reconciling, and forgets them after a day", async () => {
    const lostKeys = loseExecutorWrites();
    const id = await newUser(50);
    const key = `claim-again:${String(id)}`;
    const jobId = `claim-again-${String(id)}`;
    lostKeys.add(key);
    const held = await hold({ userId: id, coins: 3, key, feature: "text", queue: "chat", jobId, fresh: true });
    await held.recorded;
    expect(await fileUnderConversation(id, [jobId], "conv_again")).toBe(0);
    // The late writer's look-up for the claim fails after its insert.
    const lookups = vi.spyOn(ConversationFiling.collection, "findOne").mockRejectedValue(new Error("connection lost"));
    onTestFinished(() => lookups.mockRestore());
    lostKeys.delete(key);
    await vi.waitFor(async () => expect(await LedgerEntry.exists({ key })).not.toBeNull(), { timeout: 5000, interval: 50 });
    expect(lookups).toHaveBeenCalled();
    expect((await LedgerEntry.findOne({ key }).lean())?.conversationId).toBeNull();
    await reconcileLedger();
    expect((await LedgerEntry.findOne({ key }).lean())?.conversationId).toBe("conv_again");

    await ConversationFiling.collection.insertOne({
      userId: id,
      jobId: "an-old-claim",
      conversationId: "conv_old",
      createdAt: new Date(Date.now() - 25 * 3600_000),
    });
    await reconcileLedger();
    expect(await ConversationFiling.collection.countDocuments({ userId: id })).toBe(1);
  });
});
