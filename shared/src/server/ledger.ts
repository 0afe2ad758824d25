/**
 * The only module that changes a balance. Every change is a ledger entry with an idempotency
 * key; balances move by single-document conditional updates, never by multi-document
 * transactions (DESIGN §3). docs/ledger.md walks through every crash point.
 *
 * Applying an entry takes three writes:
 *   1. insert the entry as `pending` (the unique key makes exactly one caller its executor);
 *   2. on the user: `$inc` coins and set the entry's marker `pendingEntries.<id>`, on condition
 *      that the balance stays >= 0 and neither the marker nor the reconciler's fence for the entry
 *      is there yet: the commit point;
 *   3. mark the entry `applied` with the balance after; its marker is removed later, by this
 *      process's next commit for the user or a batch a second after.
 * A crash after 1 leaves a pending entry not on the user: the reconciler fences it off the user and
 * marks it failed, once it is older than the executor's deadline or its executor has stopped. A
 * crash after 2 leaves the marker on the user: the reconciler marks the entry applied. A crash after
 * 3 leaves only the marker to remove.
 *
 * A key made for one call alone (no Idempotency-Key) needs no executor elected: its entry takes two
 * writes, the commit (whose marker describes the whole entry) and then the entry, already applied
 * (`applyFresh`). A crash between them leaves the marker, from which the reconciler writes the entry.
 */
import { randomUUID } from "node:crypto";
import { Types } from "mongoose";
import { ConversationFiling } from "./models/conversation-filing";
import { LedgerEntry, type LedgerEntryDoc, type LedgerKind } from "./models/ledger-entry";
import { User } from "./models/user";
import { PROCESS_ID, processGone } from "./process-identity";

/** An executor sends no commit attempt (step 2) this long after it started applying its entry. */
export const EXECUTOR_DEADLINE_MS = 20_000;
/**
 * The reconciler finishes pending entries older than this (well past the deadline), and those whose
 * executor has stopped (`abandonedEntries`).
 */
export const RECONCILE_AFTER_MS = 120_000;

export class InsufficientCoinsError extends Error {
  constructor(
    readonly needed: number,
    readonly available: number,
  ) {
    super(`Insufficient coins: need ${needed}, have ${available}`);
  }
}

export class IdempotencyConflictError extends Error {
  constructor(readonly key: string) {
    super(`Idempotency key ${key} was used for a different change`);
  }
}

export class LedgerInProgressError extends Error {
  constructor(readonly key: string) {
    super(`Ledger entry ${key} is still being applied`);
  }
}

export class UnknownUserError extends Error {}

/** The charge would take the day's spending past the user's daily cap . */
export class DailyCapError extends Error {
  constructor(
    readonly cap: number,
    readonly spent: number,
    readonly needed: number,
  ) {
    super(`Daily spending cap of ${cap} coins: ${spent} spent today, ${needed} more asked`);
  }
}

/** Where a committed entry's marker lives on its user: `pendingEntries.<entry id>`. */
function markerPath(entryId: Types.ObjectId): string {
  return `pendingEntries.${entryId.toHexString()}`;
}

/**
 * Where the reconciler fences off an entry it found not committed: `voidEntries.<entry id>`, the time
 * it did. A commit's condition requires this to be absent, so an entry marked failed can never be
 * committed after all, by a write still on its way or an executor the reconciler took for gone. Kept
 * FENCE_KEEP_MS, far past any commit sent before the executor's deadline (a paused process, a driver
 * holding a write, clocks apart): fences are rare, one per abandoned entry.
 */
const FENCE_KEEP_MS = 24 * 60 * 60_000;

function fencePath(entryId: Types.ObjectId): string {
  return `voidEntries.${entryId.toHexString()}`;
}

/** The `$unset` that takes these entries' markers off their user. */
function unsetMarkers(entries: readonly Types.ObjectId[]): Record<string, ""> {
  return Object.fromEntries(entries.map((id) => [markerPath(id), ""]));
}

/**
 * Users that still carry a marker: an entry in flight, applied and not yet tidied, or left by a
 * crash. `pendingLedger` is the list earlier versions kept, read until the reconciler empties it.
 */
export const WITH_LEDGER_MARKERS = {
  $or: [{ "pendingLedger.0": { $exists: true } }, { pendingEntries: { $exists: true, $nin: [{}, null] } }],
};

/** The ids of the entries whose marker is still on the user (both forms). */
export function markedEntries(user: {
  pendingLedger?: unknown[] | null;
  pendingEntries?: Record<string, unknown> | null;
}): Types.ObjectId[] {
  const legacy = (user.pendingLedger ?? []).map((id) => new Types.ObjectId(String(id)));
  return [...legacy, ...Object.keys(user.pendingEntries ?? {}).map((id) => new Types.ObjectId(id))];
}

/**
 * Step 3's tidying, deferred: the markers of entries this process marked applied, by user. A
 * marker of an applied entry guards nothing (each commit's condition names its own entry), so
 * the user's next commit from this process removes them in its own update, and what is left is
 * removed in one batch a second later. A crash forgets them; the reconciler's sweep removes
 * the markers of entries no longer pending.
 */
let tidyAfterMs = 1000;
const untidied = new Map<string, { userId: Types.ObjectId; entries: Types.ObjectId[] }>();
let tidyTimer: NodeJS.Timeout | undefined;

function tidyLater(userId: Types.ObjectId, ...entries: Types.ObjectId[]): void {
  if (entries.length === 0) return;
  const key = userId.toHexString();
  const queued = untidied.get(key);
  if (queued) queued.entries.push(...entries);
  else untidied.set(key, { userId, entries: [...entries] });
  tidyTimer ??= setTimeout(() => void flushTidying(), tidyAfterMs).unref();
}

/** How long a queued marker waits for its user's next commit before the batch removes it (tests lengthen it). */
export function setTidyDelay(ms: number): void {
  tidyAfterMs = ms;
}

function takeTidying(userId: Types.ObjectId): Types.ObjectId[] {
  const key = userId.toHexString();
  const queued = untidied.get(key);
  untidied.delete(key);
  return queued?.entries ?? [];
}

/** Removes every marker still queued for tidying now (the timer's batch; a process stopping may call it). */
export async function flushTidying(): Promise<void> {
  clearTimeout(tidyTimer);
  tidyTimer = undefined;
  if (untidied.size === 0) return;
  const batch = [...untidied.values()];
  untidied.clear();
  await User.collection
    .bulkWrite(
      batch.map(({ userId, entries }) => ({
        updateOne: { filter: { _id: userId }, update: { $unset: unsetMarkers(entries) } },
      })),
      { ordered: false },
    )
    .catch(() => undefined);
}

/** The UTC day a spend counts toward ("2026-11-25"); the daily cap resets at 00:00 UTC. */
export function spendDayOf(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10);
}

/** The balance moved since it was read (absolute sets only). */
export class BalanceChangedError extends Error {}

export interface EntryInput {
  userId: Types.ObjectId | string;
  key: string;
  kind: LedgerKind;
  /** Signed integer change of the balance. */
  amount: number;
  feature?: string | null;
  reason?: string;
  details?: string;
  actor?: string;
  holdState?: "held" | null;
  jobId?: string | null;
  queue?: string | null;
  /** The chat conversation a charge (or its release) belongs to: the conversation's cost. */
  conversationId?: string | null;
  /** Apply only while the balance still equals this (absolute sets). */
  expectCoins?: number;
  /**
   * A subscriber's spending (debits and holds): counted toward the UTC day's total on the user in
   * the same conditional update as the debit, and refused past `cap` (null: no cap).
   */
  spend?: { day: string; cap: number | null };
  /** A release of spending counted on `day`: the day's total goes down too while it is still that day. */
  unspendDay?: string;
  /**
   * The key was made for this call alone (the client sent no Idempotency-Key), so no other caller
   * can hold it: the entry is committed first and written after (`applyFresh`), two writes instead
   * of three, and the second need not be waited for before the job is queued.
   */
  fresh?: boolean;
}

export interface AppliedEntry {
  id: string;
  key: string;
  amount: number;
  balanceAfter: number | null;
  /** True when the key had already been applied and nothing changed now. */
  replayed: boolean;
  /**
   * The user's low-balance flag as this entry's own update left it (low-balance.ts), so that a
   * charge that neither crosses nor follows a crossing costs no further write. Unknown on a replay.
   */
  lowBalanceAlerted?: boolean;
  /**
   * A fresh entry is answered once committed; this settles when the entry itself is written (or,
   * should that write fail, handed to the retries and the reconciler). Never rejects.
   */
  recorded?: Promise<void>;
}

function toObjectId(id: Types.ObjectId | string): Types.ObjectId {
  if (id instanceof Types.ObjectId) return id;
  if (!Types.ObjectId.isValid(id)) throw new UnknownUserError(`unknown user ${id}`);
  return new Types.ObjectId(id);
}

function isDuplicateKey(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: number }).code === 11000;
}

function resultOf(entry: LedgerEntryDoc, replayed: boolean): AppliedEntry {
  return { id: String(entry._id), key: entry.key, amount: entry.amount, balanceAfter: entry.balanceAfter ?? null, replayed };
}

/** What a failed entry means to the caller, rethrown the same way on a replay. */
function throwFailure(entry: LedgerEntryDoc): never {
  if (entry.failure === "insufficient") {
    throw new InsufficientCoinsError(-entry.amount, Number(entry.details.match(/available=(\d+)/u)?.[1] ?? 0));
  }
  if (entry.failure === "balance_changed") throw new BalanceChangedError(entry.key);
  if (entry.failure === "daily_cap") {
    const [cap, spent] = [/cap=(\d+)/u, /spent=(\d+)/u].map((re) => Number(entry.details.match(re)?.[1] ?? 0));
    throw new DailyCapError(cap!, spent!, -entry.amount);
  }
  throw new LedgerInProgressError(entry.key);
}

async function replay(input: EntryInput, userId: Types.ObjectId): Promise<AppliedEntry> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const existing = await LedgerEntry.findOne({ key: input.key }).lean<LedgerEntryDoc>();
    if (!existing) throw new LedgerInProgressError(input.key);
    if (!existing.userId.equals(userId) || existing.amount !== input.amount || existing.kind !== input.kind) {
      throw new IdempotencyConflictError(input.key);
    }
    if (existing.state === "applied") return resultOf(existing, true);
    if (existing.state === "failed") throwFailure(existing);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new LedgerInProgressError(input.key);
}

/**
 * A new entry, pending and naming this process its executor. Every field of the schema, written by
 * the driver: the entry is built here from typed input, so a mongoose document (casting, validation,
 * hooks) would only cost CPU on every charge.
 */
function newEntry(input: EntryInput, userId: Types.ObjectId): LedgerEntryDoc {
  const now = new Date();
  return {
    _id: new Types.ObjectId(),
    userId,
    key: input.key,
    kind: input.kind,
    amount: input.amount,
    feature: input.feature ?? null,
    balanceAfter: null,
    state: "pending",
    reason: input.reason ?? input.kind,
    details: input.details ?? "",
    holdState: input.holdState ?? null,
    jobId: input.jobId ?? null,
    queue: input.queue ?? null,
    actor: input.actor ?? "user",
    failure: null,
    conversationId: input.conversationId ?? null,
    // The day a spend counted toward, so that its release gives that day's allowance back.
    spendDay: input.spend?.day ?? null,
    executor: PROCESS_ID,
    executorGoneAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Applies one balance change exactly once per key. */
export async function applyEntry(input: EntryInput): Promise<AppliedEntry> {
  if (!Number.isSafeInteger(input.amount)) throw new RangeError("ledger amounts are integers");
  const userId = toObjectId(input.userId);
  const startedAt = performance.now();
  const entry = newEntry(input, userId);
  if (input.fresh && input.expectCoins === undefined) return applyFresh(input, entry, startedAt);
  try {
    await LedgerEntry.collection.insertOne({ ...entry, __v: 0 });
  } catch (error) {
    if (isDuplicateKey(error)) return replay(input, userId);
    // A write cut off by a lost connection may still have reached the database.
    handOver(entry._id);
    throw error;
  }

  // Whether this executor's own write has taken the entry out of `pending`.
  let finished = false;
  try {
    // Past the deadline (a slow insert included), no attempt is sent: it fails as "deadline".
    const updated = await commit(input, userId, entry._id, startedAt, 1);
    if (!updated.ok) {
      await markFailed(entry._id, updated.failure, updated.detail);
      finished = true;
      throw updated.error;
    }

    await LedgerEntry.collection.updateOne(
      { _id: entry._id },
      { $set: { state: "applied", balanceAfter: updated.coins, updatedAt: new Date() }, $unset: NOT_PENDING },
    );
    finished = true;
    tidyLater(userId, entry._id);
    return {
      id: String(entry._id),
      key: entry.key,
      amount: entry.amount,
      balanceAfter: updated.coins,
      replayed: false,
      lowBalanceAlerted: updated.lowBalanceAlerted,
    };
  } catch (error) {
    if (!finished) handOver(entry._id);
    throw error;
  }
}

/**
 * Writes this process owes the database while it is away: each is tried again every second until it
 * lands, or until RECONCILE_AFTER_MS have passed, by when the reconciler does what it would have.
 */
class OwedWrites {
  private readonly owed = new Map<string, { write: () => Promise<void>; since: number }>();
  private timer: NodeJS.Timeout | null = null;

  add(key: string, write: () => Promise<void>, firstAfterMs: number): void {
    this.owed.set(key, { write, since: Date.now() });
    this.timer ??= setTimeout(() => void this.run(), firstAfterMs).unref();
  }

  private async run(): Promise<void> {
    for (const [key, { write, since }] of this.owed) {
      if (Date.now() - since <= RECONCILE_AFTER_MS) {
        try {
          await write();
        } catch {
          continue; // The database is still away: the next round tries again.
        }
      }
      this.owed.delete(key);
    }
    this.timer = this.owed.size ? setTimeout(() => void this.run(), 1000).unref() : null;
  }
}

/**
 * Entries this process stopped executing on a database error, whatever the error left them as
 * (pending, with or without the commit), until it has recorded on each that it sends nothing more
 * for it (`executorGoneAt`). The reconciler's next run then finishes it, instead of waiting out the
 * age meant for live executors.
 */
const handOvers = new OwedWrites();

function handOver(id: Types.ObjectId): void {
  handOvers.add(
    id.toHexString(),
    async () => {
      await LedgerEntry.collection.updateOne(
        { _id: id, state: "pending", executorGoneAt: null },
        { $set: { executorGoneAt: new Date() } },
      );
    },
    0,
  );
}

/**
 * A fresh entry's marker: the entry itself but for what the commit decides (state, balance after),
 * so that the reconciler can write the entry from it should its executor stop between the commit
 * and the write. `at` is when the entry was made.
 */
type Described = Pick<
  LedgerEntryDoc,
  | "key"
  | "kind"
  | "amount"
  | "feature"
  | "reason"
  | "details"
  | "holdState"
  | "jobId"
  | "queue"
  | "actor"
  | "conversationId"
  | "spendDay"
  | "executor"
> & { at: Date };

function describe(entry: LedgerEntryDoc): Described {
  const { key, kind, amount, feature, reason, details, holdState, jobId, queue, actor, conversationId, spendDay, executor } =
    entry;
  return {
    key,
    kind,
    amount,
    feature,
    reason,
    details,
    holdState,
    jobId,
    queue,
    actor,
    conversationId,
    spendDay,
    executor,
    at: entry.createdAt,
  };
}

function isDescribed(marker: unknown): marker is Described {
  return typeof marker === "object" && marker !== null && typeof (marker as Described).key === "string";
}

/** The entry a fresh entry's marker describes, as its executor would have written it; the balance after is not known. */
function fromMarker(userId: Types.ObjectId, id: Types.ObjectId, marker: Described, now: Date): LedgerEntryDoc & { __v: 0 } {
  const { at, executor: _executor, ...fields } = marker;
  return {
    ...fields,
    _id: id,
    userId,
    state: "applied",
    balanceAfter: null,
    failure: null,
    details: `${fields.details} [recovered]`.trim(),
    executor: null,
    executorGoneAt: null,
    createdAt: at,
    updatedAt: now,
    __v: 0,
  };
}

/**
 * A fresh entry (`EntryInput.fresh`): its key is this call's own, so no other caller can apply it
 * and no executor need be elected by writing the entry first. The commit comes first, its marker
 * carrying the whole entry; the entry is written after, already applied. A crash between the two
 * leaves the marker, and the reconciler writes the entry from it (`reconcileLedger`). A refused
 * commit moved nothing, and is written as a failed entry, as the three-write path records it.
 */
async function applyFresh(input: EntryInput, entry: LedgerEntryDoc, startedAt: number): Promise<AppliedEntry> {
  const { _id: id, userId } = entry;
  let updated: Commit;
  try {
    updated = await commit(input, userId, id, startedAt, describe(entry));
  } catch (error) {
    // Cut off on its way (a lost connection): the commit may have landed, now or later. Until the
    // reconciler's age, this process looks for the marker every second and writes what it describes.
    unrecorded.add(id.toHexString(), () => writeIfMarked(userId, id), 0);
    throw error;
  }
  // Only a pending entry names its executor.
  const { executor: _executor, executorGoneAt: _gone, ...fields } = entry;
  if (!updated.ok) {
    const details = updated.detail ? { details: updated.detail } : {};
    await LedgerEntry.collection
      .insertOne({ ...fields, ...details, state: "failed" as const, failure: updated.failure, __v: 0 })
      .catch(() => undefined);
    throw updated.error;
  }
  const applied = { ...fields, state: "applied" as const, balanceAfter: updated.coins, updatedAt: new Date(), __v: 0 as const };
  return {
    id: String(id),
    key: entry.key,
    amount: entry.amount,
    balanceAfter: updated.coins,
    replayed: false,
    lowBalanceAlerted: updated.lowBalanceAlerted,
    recorded: record(applied),
  };
}

/**
 * Writes a committed fresh entry. A write that fails is owed (tried again every second for as long
 * as the reconciler would leave the marker to this process); a duplicate means the reconciler wrote
 * it from the marker already. The marker is tidied only once the entry is there.
 */
async function record(entry: LedgerEntryDoc & { __v: 0 }): Promise<void> {
  const write = async (late: boolean) => {
    await (late ? insertLate(entry) : insertOnce(entry));
    tidyLater(entry.userId, entry._id);
  };
  // The first write comes before the call answers, so before any save can file the job's charge.
  await write(false).catch(() => unrecorded.add(entry._id.toHexString(), () => write(true), 1000));
}

const unrecorded = new OwedWrites();

/**
 * Inserts an entry under its own id, once: a duplicate of that id means another writer (the
 * executor, its retries, the reconciler, a worker) got there first with the same entry.
 */
async function insertOnce(entry: LedgerEntryDoc & { __v: 0 }): Promise<void> {
  try {
    await LedgerEntry.collection.insertOne(entry);
  } catch (error) {
    if (!isDuplicateKey(error) || !(await LedgerEntry.exists({ _id: entry._id }))) throw error;
  }
}

/**
 * Inserts an entry written late (after its call answered: a retry, or a recovery from its marker),
 * then files its job's charges under the conversation a save claimed the job for while the entry was
 * missing. The claim is written before the save files the job's entries, and looked for here after
 * the insert, so one of the two sees the other whatever their order (`fileUnderConversation`). The
 * look-up is best effort: the reconciler applies every claim again (`applyConversationClaims`).
 */
async function insertLate(entry: LedgerEntryDoc & { __v: 0 }): Promise<void> {
  await insertOnce(entry);
  if (entry.kind !== "hold" || !entry.jobId || entry.conversationId) return;
  const claim = await ConversationFiling.collection
    .findOne<{ conversationId: string }>({ userId: entry.userId, jobId: entry.jobId }, { projection: { conversationId: 1 } })
    .catch(() => null);
  if (claim) await fileJobs(entry.userId, [entry.jobId], claim.conversationId).catch(() => undefined);
}

/** Files the user's hold and release entries of these jobs that have no conversation under `conversationId`. */
function fileJobs(userId: Types.ObjectId, jobIds: readonly string[], conversationId: string) {
  return LedgerEntry.collection.updateMany(
    { userId, jobId: { $in: [...jobIds] }, kind: { $in: ["hold", "release"] }, conversationId: null },
    { $set: { conversationId } },
  );
}

/** Writes the fresh entry a user's marker describes, if the marker is there (throws if not yet). */
async function writeIfMarked(userId: Types.ObjectId, id: Types.ObjectId): Promise<void> {
  const path = markerPath(id);
  const user = await User.collection.findOne<{ pendingEntries?: Record<string, unknown> }>(
    { _id: userId, [path]: { $exists: true } },
    { projection: { [path]: 1 } },
  );
  const marker = user?.pendingEntries?.[id.toHexString()];
  if (!isDescribed(marker)) throw new Error("no commit seen yet");
  await writeDescribed(userId, id, marker);
}

/** Writes the entry `marker` describes, as its executor would have, and queues the marker's removal. */
async function writeDescribed(userId: Types.ObjectId, id: Types.ObjectId, marker: Described): Promise<void> {
  await insertLate(fromMarker(userId, id, marker, new Date()));
  tidyLater(userId, id);
}

type Commit =
  | { ok: true; coins: number; lowBalanceAlerted: boolean }
  | { ok: false; failure: string; detail: string; error: Error };
type Committed = { coins: number; lowBalanceAlerted?: boolean };

interface SpendState {
  coins: number;
  spendDay?: string;
  spentToday?: number;
}

/**
 * Step 2, the commit point: one conditional update of the user. A spend also moves the day's
 * total: when the user's counter is already on `day` it is incremented under the cap's condition,
 * otherwise it is restarted at this amount. The two updates exclude each other (the counter is
 * on the day or not), so whichever matches is the one atomic step; a caller racing the day's
 * first spend just tries again. A release gives the day's allowance back while it is still the
 * day the spend counted on.
 */
async function commit(
  input: EntryInput,
  userId: Types.ObjectId,
  entryId: Types.ObjectId,
  startedAt: number,
  markerValue: 1 | Described,
): Promise<Commit> {
  // Markers of this process's earlier entries for the user, all applied: removed in the same update.
  const tidied = takeTidying(userId);
  let committed = false;
  try {
    const result = await tryCommit(input, userId, entryId, tidied, startedAt, markerValue).catch((error: unknown) => {
      if (!(error instanceof PastDeadline)) throw error;
      return { ok: false, failure: "deadline", detail: "", error: new LedgerInProgressError(input.key) } as const;
    });
    committed = result.ok;
    return result;
  } finally {
    if (!committed) tidyLater(userId, ...tidied);
  }
}

/** Thrown instead of sending a commit attempt past the executor's deadline. */
class PastDeadline extends Error {}

async function tryCommit(
  input: EntryInput,
  userId: Types.ObjectId,
  entryId: Types.ObjectId,
  tidied: readonly Types.ObjectId[],
  startedAt: number,
  markerValue: 1 | Described,
): Promise<Commit> {
  const marker = markerPath(entryId);
  const base: Record<string, unknown> = { _id: userId, [marker]: { $exists: false }, [fencePath(entryId)]: { $exists: false } };
  if (input.amount < 0) base.coins = { $gte: -input.amount };
  if (input.expectCoins !== undefined) base.coins = input.expectCoins;
  const unset = tidied.length ? { $unset: unsetMarkers(tidied) } : {};
  // Through the driver, as the entry's own writes: every field is given here, nothing to cast.
  // No attempt is sent after the deadline, however long the earlier ones took.
  const attempt = (condition: Record<string, unknown>, inc: Record<string, number>, set: Record<string, unknown> = {}) => {
    if (performance.now() - startedAt > EXECUTOR_DEADLINE_MS) throw new PastDeadline();
    return User.collection.findOneAndUpdate(
      condition,
      { $inc: { coins: input.amount, ...inc }, $set: { [marker]: markerValue, updatedAt: new Date(), ...set }, ...unset },
      { returnDocument: "after", projection: { coins: 1, lowBalanceAlerted: 1 } },
    ) as Promise<Committed | null>;
  };

  const { spend, unspendDay } = input;
  for (let tries = 0; tries < 5; tries++) {
    let updated: Committed | null;
    if (spend) {
      const cost = -input.amount;
      const underCap = spend.cap === null ? {} : { spentToday: { $lte: spend.cap - cost } };
      updated = await attempt({ ...base, spendDay: spend.day, ...underCap }, { spentToday: cost });
      if (!updated && (spend.cap === null || cost <= spend.cap)) {
        updated = await attempt({ ...base, spendDay: { $ne: spend.day } }, {}, { spendDay: spend.day, spentToday: cost });
      }
    } else if (unspendDay) {
      updated =
        (await attempt({ ...base, spendDay: unspendDay, spentToday: { $gte: input.amount } }, { spentToday: -input.amount })) ??
        (await attempt(base, {}));
    } else {
      updated = await attempt(base, {});
    }
    if (updated) return { ok: true, coins: updated.coins, lowBalanceAlerted: updated.lowBalanceAlerted ?? false };

    const user = await User.findById(userId, { coins: 1, spendDay: 1, spentToday: 1 }).lean<SpendState>();
    if (!user)
      return { ok: false, failure: "unknown_user", detail: "", error: new UnknownUserError(`unknown user ${String(userId)}`) };
    if (input.expectCoins !== undefined) {
      return {
        ok: false,
        failure: "balance_changed",
        detail: `available=${user.coins}`,
        error: new BalanceChangedError(input.key),
      };
    }
    if (input.amount < 0 && user.coins < -input.amount) {
      return {
        ok: false,
        failure: "insufficient",
        detail: `available=${user.coins}`,
        error: new InsufficientCoinsError(-input.amount, user.coins),
      };
    }
    if (spend && spend.cap !== null) {
      const spent = user.spendDay === spend.day ? (user.spentToday ?? 0) : 0;
      if (spent + -input.amount > spend.cap) {
        return {
          ok: false,
          failure: "daily_cap",
          detail: `cap=${spend.cap} spent=${spent}`,
          error: new DailyCapError(spend.cap, spent, -input.amount),
        };
      }
    }
    // The balance or the day's counter moved between the update and the read: try again.
  }
  return { ok: false, failure: "contended", detail: "", error: new LedgerInProgressError(input.key) };
}

/** The fields only a pending entry needs, removed when it is applied or failed. */
const NOT_PENDING = { executor: "", executorGoneAt: "" } as const;

async function markFailed(id: Types.ObjectId, failure: string, detail: string): Promise<void> {
  await LedgerEntry.updateOne(
    { _id: id, state: "pending" },
    { state: "failed", failure, ...(detail ? { details: detail } : {}), $unset: NOT_PENDING },
  );
}

/** Debits a charge for a feature; 402-worthy InsufficientCoinsError when short. */
export function debit(
  userId: Types.ObjectId | string,
  coins: number,
  key: string,
  feature: string,
  details = "",
  dailyCap: number | null = null,
): Promise<AppliedEntry> {
  if (coins < 1) throw new RangeError("a debit is at least 1 coin");
  const spend = { day: spendDayOf(), cap: dailyCap };
  return applyEntry({ userId, key, kind: "debit", amount: -coins, feature, details, reason: `use:${feature}`, spend });
}

export function credit(
  userId: Types.ObjectId | string,
  coins: number,
  key: string,
  kind: Extract<LedgerKind, "credit" | "refund" | "renewal">,
  reason: string,
  actor = "system",
  /** For a refund of a debit: the day it counted toward, whose allowance comes back with it. */
  unspendDay?: string | null,
): Promise<AppliedEntry> {
  if (coins < 1) throw new RangeError("a credit is at least 1 coin");
  return applyEntry({ userId, key, kind, amount: coins, reason, actor, ...(unspendDay ? { unspendDay } : {}) });
}

/**
 * Sets a balance to an absolute value (administrator edit, renewal failure reset) as one
 * ledger entry of the difference, retried when the balance moves underneath.
 */
export async function setBalance(
  userId: Types.ObjectId | string,
  target: number,
  kind: Extract<LedgerKind, "admin_set" | "reset">,
  reason: string,
  actor: string,
  keyPrefix = `${kind}:${randomUUID()}`,
): Promise<AppliedEntry | null> {
  if (!Number.isSafeInteger(target) || target < 0) throw new RangeError("balances are integers >= 0");
  const id = toObjectId(userId);
  for (let attempt = 0; attempt < 10; attempt++) {
    const user = await User.findById(id, { coins: 1 }).lean<{ coins: number }>();
    if (!user) throw new UnknownUserError(`unknown user ${String(id)}`);
    if (user.coins === target) return null;
    try {
      return await applyEntry({
        userId: id,
        key: `${keyPrefix}:${attempt}`,
        kind,
        amount: target - user.coins,
        reason,
        actor,
        expectCoins: user.coins,
      });
    } catch (error) {
      if (!(error instanceof BalanceChangedError)) throw error;
    }
  }
  throw new BalanceChangedError("balance kept changing");
}

export interface HoldInput {
  userId: Types.ObjectId | string;
  coins: number;
  key: string;
  feature: string;
  details?: string;
  queue: string;
  jobId: string;
  /** The user's daily spending cap in coins (null: none); see `commit`. */
  dailyCap?: number | null;
  conversationId?: string | null;
  /** The key is this call's own (no Idempotency-Key): see `EntryInput.fresh`. */
  fresh?: boolean;
}

/** Holds the cost of a job when it is accepted (hold → settle → release). */
export function hold(input: HoldInput): Promise<AppliedEntry> {
  if (input.coins < 1) throw new RangeError("a hold is at least 1 coin");
  return applyEntry({
    userId: input.userId,
    key: input.key,
    kind: "hold",
    amount: -input.coins,
    feature: input.feature,
    details: input.details ?? "",
    reason: `hold:${input.feature}`,
    holdState: "held",
    queue: input.queue,
    jobId: input.jobId,
    conversationId: input.conversationId ?? null,
    spend: { day: spendDayOf(), cap: input.dailyCap ?? null },
    fresh: input.fresh ?? false,
  });
}

/**
 * How long a hold's entry is waited for when it is not there: a fresh hold (`applyFresh`) is
 * written while its job is being queued, so a worker can reach it a moment before the entry.
 */
let holdWriteWaitMs = 2000;

/** Tests shorten the wait. */
export function setHoldWriteWait(ms: number): void {
  holdWriteWaitMs = ms;
}

/**
 * A hold's entry (the fields asked for), waited for when it is not there yet. Given its user, a
 * fresh hold whose entry is still missing then is written from the marker its commit left (its
 * executor stopped or cannot reach the database: the job's work need not wait for the reconciler).
 * Null when there is no such hold.
 */
export async function findHold<T extends object = { _id: Types.ObjectId }>(
  holdKey: string,
  projection: Record<string, 1> = { _id: 1 },
  userId?: Types.ObjectId | string,
): Promise<T | null> {
  const read = () => LedgerEntry.collection.findOne<T>({ key: holdKey, kind: "hold" }, { projection });
  for (let waited = 0, pause = 2; waited < holdWriteWaitMs; waited += pause, pause = Math.min(pause * 2, 250)) {
    const entry = await read();
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  const entry = await read();
  if (entry || !userId || !Types.ObjectId.isValid(userId)) return entry;
  const owner = toObjectId(userId);
  const user = await User.collection.findOne<{ pendingEntries?: Record<string, unknown> }>(
    { _id: owner },
    { projection: { pendingEntries: 1 } },
  );
  for (const [hex, marker] of Object.entries(user?.pendingEntries ?? {})) {
    if (!isDescribed(marker) || marker.key !== holdKey) continue;
    await writeDescribed(owner, new Types.ObjectId(hex), marker);
    return read();
  }
  return null;
}

/** The job completed: the held coins are spent for good. Idempotent. */
export async function settleHold(holdKey: string): Promise<boolean> {
  const result = await LedgerEntry.collection.updateOne(
    { key: holdKey, state: "applied", holdState: "held" },
    { $set: { holdState: "settled", updatedAt: new Date() } },
  );
  return result.modifiedCount === 1;
}

/**
 * The job failed, was cancelled or expired: the held coins go back, exactly once.
 * Returns the refund entry, or null when the hold was already settled or released.
 */
export async function releaseHold(
  holdKey: string,
  reason: string,
  actor = "worker",
  /** The hold's user, when known: a fresh hold's entry its executor never wrote is written from the commit's marker. */
  userId?: Types.ObjectId | string,
): Promise<AppliedEntry | null> {
  const claim = () =>
    LedgerEntry.findOneAndUpdate(
      { key: holdKey, state: "applied", holdState: { $in: ["held", "releasing"] } },
      { holdState: "releasing", releaser: PROCESS_ID },
      { returnDocument: "after" },
    ).lean<LedgerEntryDoc>();
  // A fresh hold's entry may be a moment behind its job: claimed again once it is there.
  const claimed = (await claim()) ?? ((await findHold(holdKey, { _id: 1 }, userId)) ? await claim() : null);
  if (!claimed) return null;
  const refund = await refundOnce(claimed, holdKey, reason, actor);
  // Filed under a conversation since it was claimed: the refund goes with it (a filing after this
  // read finds the refund's entry there and files both).
  if (!claimed.conversationId && claimed.jobId) {
    const hold = await LedgerEntry.collection
      .findOne<{ conversationId?: string | null }>({ _id: claimed._id }, { projection: { conversationId: 1 } })
      .catch(() => null);
    if (hold?.conversationId) await fileJobs(claimed.userId, [claimed.jobId], hold.conversationId).catch(() => undefined);
  }
  await LedgerEntry.updateOne({ _id: claimed._id }, { holdState: "released", $unset: { releaser: "" } });
  return refund;
}

/** Failures that leave an entry without any change of the balance: its executor stopped before the commit. */
const NOTHING_MOVED = ["abandoned", "deadline", "contended"];
const MAX_REFUND_KEYS = 10;

/**
 * The refund of a claimed hold under `release:<hold key>`. An executor that died after inserting that
 * entry and before its commit leaves it failed (the reconciler's "abandoned"), with nothing moved
 * and the key taken: the refund is then made under the next key (`release:<hold key>:retry:<n>`),
 * still once, since each key makes exactly one executor and a failed entry moved no coins.
 */
async function refundOnce(claimed: LedgerEntryDoc, holdKey: string, reason: string, actor: string): Promise<AppliedEntry> {
  for (let attempt = 0; ; attempt++) {
    const key = attempt === 0 ? `release:${holdKey}` : `release:${holdKey}:retry:${attempt}`;
    try {
      return await applyEntry({
        userId: claimed.userId,
        key,
        kind: "release",
        amount: -claimed.amount,
        feature: claimed.feature ?? null,
        reason,
        actor,
        jobId: claimed.jobId ?? null,
        queue: claimed.queue ?? null,
        conversationId: claimed.conversationId ?? null,
        ...(claimed.spendDay ? { unspendDay: claimed.spendDay } : {}),
      });
    } catch (error) {
      const movedNothing =
        error instanceof LedgerInProgressError &&
        attempt + 1 < MAX_REFUND_KEYS &&
        (await LedgerEntry.exists({ key, state: "failed", failure: { $in: NOTHING_MOVED } }));
      if (!movedNothing) throw error;
    }
  }
}

/**
 * Files a user's charges for jobs under a conversation created after them (a first message is
 * answered before the thread is saved and has its id). Only the user's own entries without a
 * conversation change; amounts never do.
 *
 * A hold whose entry is not written yet (its write owed while the database was away; the call had
 * answered) is claimed for the conversation before the entries are filed, and its writer files it
 * when it lands (`insertLate`): an entry that lands before the filing is filed by it, one that lands
 * after finds the claim.
 */
export async function fileUnderConversation(
  userId: Types.ObjectId | string,
  jobIds: readonly string[],
  conversationId: string,
): Promise<number> {
  if (jobIds.length === 0) return 0;
  const owner = toObjectId(userId);
  const written = new Set(await LedgerEntry.distinct("jobId", { userId: owner, jobId: { $in: [...jobIds] }, kind: "hold" }));
  // A claim made first by another save of the same job stands (an upsert that races one is refused as a duplicate).
  await Promise.all(
    jobIds
      .filter((jobId) => !written.has(jobId))
      .map((jobId) =>
        ConversationFiling.collection
          .updateOne({ userId: owner, jobId }, { $setOnInsert: { conversationId, createdAt: new Date() } }, { upsert: true })
          .catch((error: unknown) => {
            if (!isDuplicateKey(error)) throw error;
          }),
      ),
  );
  return (await fileJobs(owner, jobIds, conversationId)).modifiedCount;
}

/** Coins each of a user's conversations has cost so far: its applied charges less their refunds. */
export async function conversationCosts(
  userId: Types.ObjectId | string,
  conversationIds: readonly string[],
): Promise<Map<string, number>> {
  const costs = new Map<string, number>();
  if (conversationIds.length === 0) return costs;
  const rows = await LedgerEntry.aggregate<{ _id: string; spent: number }>([
    { $match: { userId: toObjectId(userId), conversationId: { $in: [...conversationIds] }, state: "applied" } },
    { $group: { _id: "$conversationId", spent: { $sum: "$amount" } } },
  ]);
  for (const row of rows) costs.set(row._id, Math.max(0, -row.spent));
  return costs;
}

/** Sum of the applied entries of a user: equals the balance once nothing is in flight. */
export async function ledgerSum(userId: Types.ObjectId | string): Promise<number> {
  const rows = await LedgerEntry.aggregate<{ total: number }>([
    { $match: { userId: toObjectId(userId), state: "applied" } },
    { $group: { _id: null, total: { $sum: "$amount" } } },
  ]);
  return rows[0]?.total ?? 0;
}

export interface ReconcileReport {
  /** Fresh entries written from their marker: the executor committed and stopped before writing them. */
  written: number;
  markedApplied: number;
  markedFailed: number;
  pulled: number;
  releasesFinished: number;
}

/**
 * The pending entries to finish: older than `cutoff`, or whose executor has stopped: it said so itself
 * after a database error (`handOver`), or its process has ended (`processGone`). Finishing fences the
 * entry first, so a wrong guess can only fail a charge still in flight, never move coins twice.
 * Pending entries are the charges in flight, a handful, so all of them are read.
 */
async function abandonedEntries(cutoff: Date): Promise<LedgerEntryDoc[]> {
  const pending = await LedgerEntry.find({ state: "pending" }).lean<LedgerEntryDoc[]>();
  return pending.filter((entry) => entry.createdAt < cutoff || entry.executorGoneAt || processGone(entry.executor));
}

/**
 * Writes the fresh entries (`applyFresh`) a user's markers describe and the ledger lacks, once their
 * executor has stopped or they are older than `cutoff` (before that, the executor's own write is on
 * its way). The entry keeps the id its marker names, so a write racing the executor's lands once.
 * Returns the ids now in the ledger, whose markers can go.
 */
async function writeFromMarkers(
  user: { _id: Types.ObjectId; pendingEntries?: Record<string, unknown> },
  inLedger: ReadonlySet<string>,
  cutoff: Date,
  now: Date,
): Promise<Types.ObjectId[]> {
  const written: Types.ObjectId[] = [];
  for (const [hex, marker] of Object.entries(user.pendingEntries ?? {})) {
    if (inLedger.has(hex) || !isDescribed(marker)) continue;
    if (!(marker.at < cutoff || processGone(marker.executor))) continue;
    const id = new Types.ObjectId(hex);
    try {
      await insertLate(fromMarker(user._id, id, marker, now));
      written.push(id);
    } catch {
      // Left for the next run: the other markers and users go on.
    }
  }
  return written;
}

/** How long a save's claim on a job's charges is kept (`fileUnderConversation`). */
const CLAIM_KEEP_MS = 24 * 3600_000;

/**
 * Files the charges of every claimed job under its claim's conversation, in case a late writer's
 * look-up failed after its insert, and removes claims older than CLAIM_KEEP_MS (a TTL index does so
 * on MongoDB too; the local stand-in keeps no TTL). There are few: a claim is made only for a job
 * whose entry was missing when its conversation was saved.
 */
async function applyConversationClaims(now: Date): Promise<void> {
  const expired = new Date(now.getTime() - CLAIM_KEEP_MS);
  await ConversationFiling.collection.deleteMany({ createdAt: { $lt: expired } });
  const claims = await ConversationFiling.collection
    .find<{ userId: Types.ObjectId; jobId: string; conversationId: string }>({}, { projection: { _id: 0 } })
    .toArray();
  for (const claim of claims) await fileJobs(claim.userId, [claim.jobId], claim.conversationId);
}

/** Takes off the fences set more than FENCE_KEEP_MS before `now` (a few users carry any). */
async function removeOldFences(now: Date): Promise<void> {
  const fenced = await User.collection
    .find<{ _id: Types.ObjectId; voidEntries?: Record<string, Date> }>(
      { voidEntries: { $exists: true, $nin: [{}, null] } },
      { projection: { voidEntries: 1 } },
    )
    .toArray();
  for (const user of fenced) {
    for (const [id, at] of Object.entries(user.voidEntries ?? {})) {
      if (at instanceof Date && now.getTime() - at.getTime() <= FENCE_KEEP_MS) continue;
      // Only the fence as read: one that another reconciler has just set again stays.
      await User.collection.updateOne({ _id: user._id, [`voidEntries.${id}`]: at }, { $unset: { [`voidEntries.${id}`]: "" } });
    }
  }
}

/**
 * Finishes whatever a crash left half-done. Safe to run at any time and from any number of
 * processes: every step is conditional and idempotent.
 */
export async function reconcileLedger(now = new Date(), olderThanMs = RECONCILE_AFTER_MS): Promise<ReconcileReport> {
  const report: ReconcileReport = { written: 0, markedApplied: 0, markedFailed: 0, pulled: 0, releasesFinished: 0 };
  const cutoff = new Date(now.getTime() - olderThanMs);

  const stale = await abandonedEntries(cutoff);
  for (const entry of stale) {
    // Fenced when not committed: from here on its commit cannot match, so "failed" is final.
    const fenced = await User.collection.updateOne(
      { _id: entry.userId, [markerPath(entry._id)]: { $exists: false }, pendingLedger: { $ne: entry._id } },
      { $set: { [fencePath(entry._id)]: now } },
    );
    const user = fenced.matchedCount === 0 ? await User.findById(entry.userId, { coins: 1 }).lean<{ coins: number }>() : null;
    if (user) {
      // Not fenced, and the user is there: its marker is, so the commit happened.
      const marked = await LedgerEntry.updateOne(
        { _id: entry._id, state: "pending" },
        {
          state: "applied",
          balanceAfter: user.coins,
          details: `${entry.details} [recovered]`.trim(),
          $unset: NOT_PENDING,
        },
      );
      report.markedApplied += marked.modifiedCount;
    } else {
      const marked = await LedgerEntry.updateOne(
        { _id: entry._id, state: "pending" },
        { state: "failed", failure: "abandoned", $unset: NOT_PENDING },
      );
      report.markedFailed += marked.modifiedCount;
    }
  }

  const withMarkers = await User.collection
    .find<{ _id: Types.ObjectId; pendingLedger?: Types.ObjectId[]; pendingEntries?: Record<string, unknown> }>(
      WITH_LEDGER_MARKERS,
      { projection: { pendingLedger: 1, pendingEntries: 1 } },
    )
    .toArray();
  for (const user of withMarkers) {
    const found = await LedgerEntry.find({ _id: { $in: markedEntries(user) } }, { _id: 1, state: 1 }).lean<
      { _id: Types.ObjectId; state: string }[]
    >();
    const written = await writeFromMarkers(user, new Set(found.map((entry) => entry._id.toHexString())), cutoff, now);
    report.written += written.length;
    const ids = [...found.filter((entry) => entry.state !== "pending").map((entry) => entry._id), ...written];
    if (ids.length) {
      await User.updateOne({ _id: user._id }, { $pull: { pendingLedger: { $in: ids } }, $unset: unsetMarkers(ids) });
      report.pulled += ids.length;
    }
  }

  await removeOldFences(now);
  await applyConversationClaims(now);

  // A release whose process has ended is finished at once; one whose process runs, after the age.
  // Either way refundOnce's keys keep the refund single, should the guess be wrong.
  const releasing = (
    await LedgerEntry.find({ holdState: "releasing" }, { key: 1, updatedAt: 1, releaser: 1 }).lean<
      { key: string; updatedAt: Date; releaser?: string | null }[]
    >()
  ).filter((entry) => entry.updatedAt < cutoff || processGone(entry.releaser));
  for (const entry of releasing) {
    try {
      if (await releaseHold(entry.key, "release finished by reconciler", "reconciler")) report.releasesFinished += 1;
    } catch (error) {
      // Its refund is still being applied by a live executor (or waits for the next run to call it
      // abandoned): the other releases go on, and the next run finishes this one.
      if (!(error instanceof LedgerInProgressError)) throw error;
    }
  }
  return report;
}
