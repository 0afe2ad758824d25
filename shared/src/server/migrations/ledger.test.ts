import mongoose, { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { debit, InsufficientCoinsError, LedgerNotMigratedError, ledgerSum } from "../ledger/index";
import { ConversationJob } from "../models/conversation-job";
import { LedgerEntry } from "../models/ledger-entry";
import { User } from "../models/user";
import { migrateLedger, migrateLedgerOnce } from "./ledger";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/ledger_migration_unit"));
  await mongoose.connection.dropDatabase();
  await Promise.all([User.createIndexes(), LedgerEntry.createIndexes(), ConversationJob.createIndexes()]);
});

afterAll(async () => {
  await mongoose.disconnect();
});

const old = () => mongoose.connection.collection("ledgerentries");
const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 9, minute));

/** An entry as the old ledger stored it. */
function entry(userId: Types.ObjectId, minute: number, fields: Record<string, unknown>) {
  return {
    _id: new Types.ObjectId(),
    userId,
    feature: null,
    reason: "",
    details: "",
    actor: "user",
    createdAt: at(minute),
    ...fields,
  };
}

describe("the ledger's move to the chain format", () => {
  it("moves what the old format applied, once, finishes its releases, and leaves a disagreeing user for an operator", async () => {
    const a = new Types.ObjectId();
    const b = new Types.ObjectId();
    const c = new Types.ObjectId();
    const committed = entry(a, 3, { key: "use:a:3", kind: "debit", amount: -5, state: "pending" });
    const freshHold = new Types.ObjectId();
    await old().insertMany([
      entry(a, 1, { key: "seed:a", kind: "credit", amount: 50, state: "applied", balanceAfter: 50 }),
      entry(a, 2, { key: "use:a:2", kind: "debit", amount: -10, state: "applied", spendDay: "2026-11-27" }),
      committed, // its commit landed (the marker below), its `applied` never did
      entry(a, 4, { key: "use:a:4", kind: "debit", amount: -7, state: "pending" }), // died before its commit
      entry(a, 5, { key: "use:a:5", kind: "debit", amount: -100, state: "failed", failure: "insufficient" }),
      entry(a, 7, { key: "hk", kind: "hold", amount: -20, state: "applied", holdState: "releasing", jobId: "job-hk" }),
      entry(a, 8, { key: "release:hk", kind: "release", amount: 20, state: "failed", failure: "abandoned" }),
      entry(a, 9, { key: "release:hk:retry:1", kind: "release", amount: 20, state: "applied", jobId: "job-hk" }),
      entry(a, 10, {
        key: "hk2",
        kind: "hold",
        amount: -4,
        state: "applied",
        holdState: "releasing",
        jobId: "job-hk2",
        spendDay: "2026-11-27",
        conversationId: "conv_m",
      }),
      entry(b, 1, { key: "seed:b", kind: "credit", amount: 5, state: "applied" }),
    ]);
    const marker = { key: "fh", kind: "hold", amount: -3, holdState: "held", jobId: "job-fh", details: "", at: at(6) };
    await User.collection.insertMany([
      {
        _id: a,
        phone: `+2070${Date.now()}`,
        passwordHash: "x",
        coins: 28, // 50 - 10 - 5 - 3 - 20 + 20 - 4
        spendDay: "2026-11-27",
        spentToday: 42,
        pendingEntries: { [String(committed._id)]: 1, [String(freshHold)]: marker },
        voidEntries: { [String(new Types.ObjectId())]: at(4) },
      },
      { _id: b, phone: `+2071${Date.now()}`, passwordHash: "x", coins: 10 },
      { _id: c, phone: `+2072${Date.now()}`, passwordHash: "x", coins: 0 },
    ]);
    await mongoose.connection
      .collection("conversationfilings")
      .insertOne({ userId: a, jobId: "job-claimed", conversationId: "conv_c", createdAt: at(11) });

    await expect(debit(c, 1, "too-early", "text")).rejects.toBeInstanceOf(LedgerNotMigratedError);
    const report = await migrateLedger();
    expect(report).toMatchObject({
      users: 2,
      recovered: 2,
      releasesFinished: 2,
      mismatched: [{ userId: String(b), coins: 10, sum: 5 }],
    });

    const chain = await LedgerEntry.find({ userId: a }).sort({ seq: 1 }).lean();
    expect(chain.map((e) => e.key)).toEqual([
      "seed:a",
      "use:a:2",
      "use:a:3",
      "fh",
      "hk",
      "release:hk:retry:1",
      "hk2",
      "release:hk2",
    ]);
    let before = 0;
    for (const [i, e] of chain.entries()) {
      expect(e).toMatchObject({ seq: i + 1, balanceAfter: before + e.amount });
      before = e.balanceAfter;
    }
    expect(chain.find((e) => e.key === "fh")).toMatchObject({ _id: freshHold, holdState: "held", amount: -3 });
    expect(chain.filter((e) => e.key.startsWith("hk")).map((e) => e.holdState)).toEqual(["released", "released"]);
    // The day's spending went down with the refund of its hold, from the user's counter.
    expect(chain.at(-1)).toMatchObject({ key: "release:hk2", amount: 4, spendDay: "2026-11-27", spentToday: 38 });
    const moved = await User.collection.findOne({ _id: a });
    expect(moved).toMatchObject({ coins: 32, ledgerSeq: 8, spendDay: "2026-11-27", spentToday: 38 });
    expect(moved).not.toHaveProperty("pendingEntries");
    expect(moved).not.toHaveProperty("voidEntries");
    expect(await ledgerSum(a)).toBe(32);
    expect(await User.collection.findOne({ _id: c })).toMatchObject({ coins: 0, ledgerSeq: 0 });
    const links = await ConversationJob.find({ userId: a }, { _id: 0, jobId: 1, conversationId: 1 }).sort({ jobId: 1 }).lean();
    expect(links).toEqual([
      { jobId: "job-claimed", conversationId: "conv_c" },
      { jobId: "job-hk2", conversationId: "conv_m" },
    ]);

    // Moved users move coins; the one left for an operator does not.
    expect(await debit(a, 2, "after:a", "text")).toMatchObject({ balanceAfter: 30 });
    await expect(debit(c, 1, "after:c", "text")).rejects.toBeInstanceOf(InsufficientCoinsError);
    await expect(debit(b, 1, "after:b", "text")).rejects.toBeInstanceOf(LedgerNotMigratedError);

    // Again: nothing more moves, nothing is written twice.
    expect(await migrateLedger()).toMatchObject({ users: 0, entries: 0, releasesFinished: 0 });
    expect(await migrateLedgerOnce()).toBeNull();
    expect(await LedgerEntry.countDocuments({ userId: a })).toBe(9);
    expect(await ledgerSum(a)).toBe(30);
  });
});
