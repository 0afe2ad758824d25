/**
 * Appends one entry to a user's chain (docs/ledger.md, points 1-4): computed from the head, inserted
 * at the next `seq`, the insert being the commit; then the head is copied onto the user.
 */
import { Types } from "mongoose";
import { LedgerEntry, type HoldState, type LedgerEntryDoc, type LedgerKind } from "../models/ledger-entry";
import { User } from "../models/user";
import { ensureMigrated } from "./migrated";
import {
  DailyCapError,
  IdempotencyConflictError,
  InsufficientCoinsError,
  LedgerInProgressError,
  LedgerNotMigratedError,
  UnknownUserError,
} from "./errors";

export interface EntryInput {
  userId: Types.ObjectId | string;
  key: string;
  kind: LedgerKind;
  /** Signed integer change of the balance; or give `target`. */
  amount?: number;
  /** An absolute set: the change is whatever takes the head's balance to this (integer >= 0). */
  target?: number;
  feature?: string | null;
  reason?: string;
  details?: string;
  actor?: string;
  holdState?: HoldState | null;
  jobId?: string | null;
  queue?: string | null;
  /** A spend (debits, holds): counted toward `day`'s total and refused past `cap` (null: no cap). */
  spend?: { day: string; cap: number | null };
  /** A give-back of spending counted on `day`: the day's total goes down while it is still that day. */
  unspendDay?: string | null;
}

export interface AppliedEntry {
  id: string;
  key: string;
  amount: number;
  balanceAfter: number;
  /** True when the key had already been applied and nothing changed now. */
  replayed: boolean;
  /** The user's low-balance flag as the copy of this entry left it (low-balance.ts); unknown on a replay. */
  lowBalanceAlerted?: boolean;
}

/** What the next entry is computed from: the newest entry of the chain (seq 0: none yet). */
interface Head {
  seq: number;
  balance: number;
  spendDay: string | null;
  spentToday: number;
}

/** Heads this process wrote or read, by user (point 4's memory); the oldest go past the bound. */
const MEMORY = 20_000;
const heads = new Map<string, Head>();

function remember(userId: Types.ObjectId, head: Head): void {
  const id = userId.toHexString();
  const known = heads.get(id);
  if (known && known.seq >= head.seq) return;
  heads.delete(id);
  heads.set(id, head);
  if (heads.size > MEMORY) heads.delete(heads.keys().next().value!);
}

export function toObjectId(id: Types.ObjectId | string): Types.ObjectId {
  if (id instanceof Types.ObjectId) return id;
  if (!Types.ObjectId.isValid(id)) throw new UnknownUserError(`unknown user ${id}`);
  return new Types.ObjectId(id);
}

function isDuplicateKey(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: number }).code === 11000;
}

/** A duplicate on the (userId, seq) index, as MongoDB and the stand-in name it: the place, not the key, was taken. */
function lostPlace(error: unknown): boolean {
  return /userId_1_seq_1/u.test(String((error as { message?: unknown }).message));
}

const headOf = (entry: Pick<LedgerEntryDoc, "seq" | "balanceAfter" | "spendDay" | "spentToday">): Head => ({
  seq: entry.seq,
  balance: entry.balanceAfter,
  spendDay: entry.spendDay ?? null,
  spentToday: entry.spentToday ?? 0,
});

/** The user's copy of their head; then the entries after it, if the copy is behind. */
async function readHead(userId: Types.ObjectId, atLeast?: Head): Promise<Head> {
  const user = await User.collection.findOne<{
    coins: number;
    ledgerSeq?: number;
    spendDay?: string | null;
    spentToday?: number;
  }>({ _id: userId }, { projection: { coins: 1, ledgerSeq: 1, spendDay: 1, spentToday: 1 } });
  if (!user) throw new UnknownUserError(`unknown user ${String(userId)}`);
  // Not moved to the chain format (the migration left them for an operator): their chain is not theirs yet.
  if (user.ledgerSeq === undefined) throw new LedgerNotMigratedError();
  let head: Head = {
    seq: user.ledgerSeq ?? 0,
    balance: user.coins,
    spendDay: user.spendDay ?? null,
    spentToday: user.spentToday ?? 0,
  };
  if (atLeast && atLeast.seq > head.seq) head = atLeast;
  for (;;) {
    const next = await LedgerEntry.collection.findOne<LedgerEntryDoc>({ userId, seq: head.seq + 1 });
    if (!next) break;
    head = headOf(next);
  }
  remember(userId, head);
  return head;
}

/** The entry that would follow `head`, the refusal (the balance, the daily cap), or null: a set to the balance it is. */
function nextEntry(input: EntryInput, userId: Types.ObjectId, head: Head): LedgerEntryDoc | Error | null {
  const amount = input.target !== undefined ? input.target - head.balance : input.amount!;
  if (input.target !== undefined && amount === 0) return null;
  const balanceAfter = head.balance + amount;
  if (amount < 0 && balanceAfter < 0) return new InsufficientCoinsError(-amount, head.balance);
  let { spendDay, spentToday } = head;
  if (input.spend) {
    const spent = head.spendDay === input.spend.day ? head.spentToday : 0;
    if (input.spend.cap !== null && spent - amount > input.spend.cap) return new DailyCapError(input.spend.cap, spent, -amount);
    spendDay = input.spend.day;
    spentToday = spent - amount;
  } else if (input.unspendDay && head.spendDay === input.unspendDay && head.spentToday >= amount) {
    spentToday = head.spentToday - amount;
  }
  const now = new Date();
  return {
    _id: new Types.ObjectId(),
    userId,
    seq: head.seq + 1,
    key: input.key,
    kind: input.kind,
    feature: input.feature ?? null,
    amount,
    balanceAfter,
    spendDay,
    spentToday,
    reason: input.reason ?? input.kind,
    details: input.details ?? "",
    holdState: input.holdState ?? null,
    jobId: input.jobId ?? null,
    queue: input.queue ?? null,
    actor: input.actor ?? "user",
    createdAt: now,
    updatedAt: now,
  };
}

/** The entry already under `input.key`, as the answer to a replay; null when the key is free. */
async function replayOf(input: EntryInput, userId: Types.ObjectId): Promise<AppliedEntry | null> {
  const entry = await LedgerEntry.collection.findOne<LedgerEntryDoc>({ key: input.key });
  if (!entry) return null;
  const sameAmount = input.target !== undefined || entry.amount === input.amount;
  if (!entry.userId.equals(userId) || entry.kind !== input.kind || !sameAmount) throw new IdempotencyConflictError(input.key);
  return { id: String(entry._id), key: entry.key, amount: entry.amount, balanceAfter: entry.balanceAfter, replayed: true };
}

/**
 * Copies an entry onto its user as their head, unless a newer one is there already. Best effort: a
 * copy lost (a crash, the database away) is made by the next movement or the reconciler.
 */
export async function copyHead(entry: Pick<LedgerEntryDoc, "userId" | "seq" | "balanceAfter" | "spendDay" | "spentToday">) {
  return User.collection
    .findOneAndUpdate(
      { _id: entry.userId, ledgerSeq: { $lt: entry.seq } },
      {
        $set: {
          coins: entry.balanceAfter,
          ledgerSeq: entry.seq,
          spendDay: entry.spendDay ?? null,
          spentToday: entry.spentToday ?? 0,
          updatedAt: new Date(),
        },
      },
      { projection: { lowBalanceAlerted: 1 }, returnDocument: "after" },
    )
    .then((user) => (user as { lowBalanceAlerted?: boolean } | null)?.lowBalanceAlerted ?? undefined)
    .catch(() => undefined);
}

/** Movements of one user racing for the same place this many times in a row give up (nothing moved). */
const MAX_TRIES = 200;

/** Applies one movement exactly once per key (docs/ledger.md, points 2-4). */
export async function append(input: EntryInput): Promise<AppliedEntry> {
  if (input.target !== undefined) throw new RangeError("an absolute set goes through appendSet");
  return (await appendOrNothing(input))!;
}

/** An absolute set (`input.target`): null when the balance already is the target (nothing written). */
export function appendSet(input: EntryInput & { target: number }): Promise<AppliedEntry | null> {
  return appendOrNothing(input);
}

/**
 * The movements of one user this process is making, as a queue: each waits for the one before, so a
 * process never races itself for a place (only other processes do, and then the insert decides).
 */
const inFlight = new Map<string, Promise<unknown>>();

function oneAtATime<T>(userId: Types.ObjectId, run: () => Promise<T>): Promise<T> {
  const id = userId.toHexString();
  const mine = (inFlight.get(id) ?? Promise.resolve()).then(run, run);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  inFlight.set(id, settled);
  void settled.then(() => {
    if (inFlight.get(id) === settled) inFlight.delete(id);
  });
  return mine;
}

async function appendOrNothing(input: EntryInput): Promise<AppliedEntry | null> {
  const change = input.target ?? input.amount;
  if (!Number.isSafeInteger(change) || (input.target !== undefined && input.target! < 0)) {
    throw new RangeError("ledger amounts are integers, balances >= 0");
  }
  await ensureMigrated();
  const userId = toObjectId(input.userId);
  return oneAtATime(userId, () => appendNow(input, userId));
}

async function appendNow(input: EntryInput, userId: Types.ObjectId): Promise<AppliedEntry | null> {
  const remembered = heads.get(userId.toHexString());
  let head = remembered ?? (await readHead(userId));
  let read = !remembered;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const entry = nextEntry(input, userId, head);
    if (entry === null || entry instanceof Error) {
      // A refused movement may be the retry of one that went through: that one is the answer.
      const replayed = await replayOf(input, userId);
      if (replayed) return replayed;
      if (!read) {
        // Decided on a remembered head: read the chain before answering.
        head = await readHead(userId, head);
        read = true;
        continue;
      }
      if (entry === null) return null;
      throw entry;
    }
    try {
      await LedgerEntry.collection.insertOne({ ...entry, __v: 0 });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      if (!lostPlace(error)) {
        const replayed = await replayOf(input, userId);
        if (replayed) return replayed;
      }
      // The place was taken: the head moved on. Movements of one user racing again and again are
      // spread out a little, so that not all of them read the same head once more.
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * Math.min(tries, 10)));
      head = await readHead(userId, head);
      read = true;
      continue;
    }
    remember(userId, headOf(entry));
    const lowBalanceAlerted = await copyHead(entry);
    return {
      id: String(entry._id),
      key: entry.key,
      amount: entry.amount,
      balanceAfter: entry.balanceAfter,
      replayed: false,
      ...(lowBalanceAlerted === undefined ? {} : { lowBalanceAlerted }),
    };
  }
  throw new LedgerInProgressError(input.key);
}

/** Forgets the remembered heads (tests that write the chain behind the ledger's back). */
export function forgetHeads(): void {
  heads.clear();
}
