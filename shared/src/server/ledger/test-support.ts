/** What the ledger's test files share: a database of their own, users with coins, and the chain's invariant. */
import mongoose, { type Types } from "mongoose";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { LedgerEntry } from "../models/ledger-entry";
import { User } from "../models/user";
import { migrateLedger } from "../migrations/ledger";
import { credit, ledgerSum } from "./index";

/** Connects the file to the ledger's test database for its tests' length. */
export function useLedgerDatabase(): void {
  beforeAll(async () => {
    await mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/ledger_unit"));
    await Promise.all([User.createIndexes(), LedgerEntry.createIndexes()]);
    await migrateLedger(); // nothing to move: marks the database's ledger as the chain format
  });

  afterAll(async () => {
    await mongoose.disconnect();
  });
}

let seq = 0;
export async function newUser(coins = 0): Promise<Types.ObjectId> {
  seq += 1;
  const user = await User.create({ phone: `+20${Date.now()}${seq}`, passwordHash: "x" });
  if (coins) await credit(user._id, coins, `seed:${String(user._id)}`, "credit", "seed");
  return user._id;
}

export async function balance(id: Types.ObjectId): Promise<number> {
  return (await User.findById(id).lean<{ coins: number }>())!.coins;
}

/** The chain of a user is whole: places 1..n, each balance the one before plus its amount, never below 0. */
export async function expectWholeChain(id: Types.ObjectId): Promise<void> {
  const chain = await LedgerEntry.find({ userId: id }).sort({ seq: 1 }).lean();
  let before = 0;
  for (const [i, entry] of chain.entries()) {
    expect(entry.seq).toBe(i + 1);
    expect(entry.balanceAfter).toBe(before + entry.amount);
    expect(entry.balanceAfter).toBeGreaterThanOrEqual(0);
    before = entry.balanceAfter;
  }
  const user = await User.findById(id).lean<{ coins: number; ledgerSeq: number }>();
  expect(user).toMatchObject({ coins: before, ledgerSeq: chain.length });
  expect(await ledgerSum(id)).toBe(before);
}
