/** The crash table of docs/ledger.md, row by row, and the head a process remembers. */
import { Types } from "mongoose";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { LedgerEntry } from "../models/ledger-entry";
import { User } from "../models/user";
import { debit, forgetHeads, hold, reconcileLedger, releaseHold, settleHold } from "./index";
import { balance, expectWholeChain, newUser, useLedgerDatabase } from "./test-support";

useLedgerDatabase();

describe("the chain's head", () => {
  /** Another process's movement: an entry at the next place and its copy, behind this process's memory. */
  async function movedElsewhere(id: Types.ObjectId, amount: number): Promise<void> {
    const head = (await LedgerEntry.findOne({ userId: id }).sort({ seq: -1 }).lean())!;
    const entry = { ...head, _id: new Types.ObjectId(), seq: head.seq + 1, key: `elsewhere:${String(new Types.ObjectId())}` };
    Object.assign(entry, { kind: "credit", amount, balanceAfter: head.balanceAfter + amount, holdState: null });
    await LedgerEntry.collection.insertOne(entry);
    await User.collection.updateOne({ _id: id }, { $set: { coins: entry.balanceAfter, ledgerSeq: entry.seq } });
  }

  it("computes again from the chain when a remembered head lost its place", async () => {
    const id = await newUser(10);
    await debit(id, 4, `a:${String(id)}`, "text"); // remembered: seq 2, balance 6
    await movedElsewhere(id, 100);
    const charged = await debit(id, 4, `b:${String(id)}`, "text");
    expect(charged).toMatchObject({ balanceAfter: 102, replayed: false });
    await expectWholeChain(id);
  });

  it("reads the chain before refusing on a remembered head", async () => {
    const id = await newUser(10);
    await debit(id, 4, `a:${String(id)}`, "text");
    await movedElsewhere(id, 100);
    // The remembered head (6 coins) would refuse this; the chain's (106) does not.
    expect(await debit(id, 50, `big:${String(id)}`, "text")).toMatchObject({ balanceAfter: 56 });
    await expectWholeChain(id);
  });
});

describe("crash recovery", () => {
  /** The copy of the next head onto the user never lands (a crash or a lost connection after the insert). */
  function loseNextCopy(): void {
    const users = User.collection;
    const update = users.findOneAndUpdate.bind(users);
    let lost = false;
    const spy = vi.spyOn(users, "findOneAndUpdate").mockImplementation(((...args: Parameters<typeof update>) => {
      if (lost) return update(...args);
      lost = true;
      return Promise.reject(new Error("connection lost"));
    }) as typeof update);
    onTestFinished(() => spy.mockRestore());
  }

  it("copies a head whose copy was lost with the user's next movement", async () => {
    const id = await newUser(40);
    loseNextCopy();
    expect(await debit(id, 15, `lost-copy:${String(id)}`, "text")).toMatchObject({ balanceAfter: 25 });
    expect(await balance(id)).toBe(40); // the copy is behind its chain
    forgetHeads(); // the next movement comes from another process, which reads the stale copy
    expect(await debit(id, 5, `next:${String(id)}`, "text")).toMatchObject({ balanceAfter: 20 });
    await expectWholeChain(id);
  });

  it("copies a head whose copy was lost when reconciling, and never a copy backwards", async () => {
    const id = await newUser(40);
    loseNextCopy();
    await debit(id, 15, `lost-copy:${String(id)}`, "text");
    expect(await balance(id)).toBe(40);
    expect((await reconcileLedger()).copiesMoved).toBeGreaterThanOrEqual(1);
    expect(await balance(id)).toBe(25);
    expect((await reconcileLedger()).copiesMoved).toBe(0);
    await expectWholeChain(id);
  });

  it("replays a charge whose insert landed though its answer was lost, and moves once one that did not land", async () => {
    const id = await newUser(40);
    const entries = LedgerEntry.collection;
    const insert = entries.insertOne.bind(entries);
    const tried = new Set<string>();
    const spy = vi.spyOn(entries, "insertOne").mockImplementation(async (doc, options) => {
      const key = String(doc.key);
      const first = !tried.has(key);
      tried.add(key);
      if (first && key.startsWith("landed:")) {
        await insert(doc, options); // landed, its answer lost
        throw new Error("connection lost");
      }
      if (first && key.startsWith("lost:")) throw new Error("connection lost"); // never arrived
      return insert(doc, options);
    });
    onTestFinished(() => spy.mockRestore());
    await expect(debit(id, 10, `landed:${String(id)}`, "text")).rejects.toThrow("connection lost");
    expect(await debit(id, 10, `landed:${String(id)}`, "text")).toMatchObject({ replayed: true });
    await expect(debit(id, 7, `lost:${String(id)}`, "text")).rejects.toThrow("connection lost");
    expect(await debit(id, 7, `lost:${String(id)}`, "text")).toMatchObject({ replayed: false, balanceAfter: 23 });
    expect(await debit(id, 7, `lost:${String(id)}`, "text")).toMatchObject({ replayed: true });
    forgetHeads();
    await reconcileLedger();
    await expectWholeChain(id);
  });

  it("finishes a release that died after its claim, once, however many finish it at once", async () => {
    const id = await newUser(50);
    const key = `died-claimed:${String(id)}`;
    await hold({ userId: id, coins: 20, key, feature: "text", queue: "chat", jobId: "j-died" });
    await LedgerEntry.updateOne({ key }, { holdState: "releasing" }); // claimed, then killed
    expect(await settleHold(key)).toBe(false);
    const runs = await Promise.all([reconcileLedger(), reconcileLedger(), releaseHold(key, "the sweeper")]);
    expect(runs.length).toBe(3);
    expect(await LedgerEntry.countDocuments({ userId: id, kind: "release" })).toBe(1);
    expect(await LedgerEntry.findOne({ key }).lean()).toMatchObject({ holdState: "released" });
    expect(await releaseHold(key, "and again")).toBeNull();
    expect(await balance(id)).toBe(50);
    await expectWholeChain(id);
  });

  it("finishes a release that died after its refund without refunding again", async () => {
    const id = await newUser(50);
    const key = `died-refunded:${String(id)}`;
    await hold({ userId: id, coins: 20, key, feature: "text", queue: "chat", jobId: "j-refunded" });
    expect(await releaseHold(key, "job failed")).not.toBeNull();
    await LedgerEntry.updateOne({ key }, { holdState: "releasing" }); // killed before `released`
    expect((await reconcileLedger()).releasesFinished).toBe(1);
    expect(await LedgerEntry.findOne({ key }).lean()).toMatchObject({ holdState: "released" });
    expect(await LedgerEntry.countDocuments({ userId: id, kind: "release" })).toBe(1);
    expect(await balance(id)).toBe(50);
    await expectWholeChain(id);
  });
});
