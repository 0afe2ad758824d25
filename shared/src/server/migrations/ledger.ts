/**
 * The one-time move of the ledger from its old format (the `ledgerentries` collection: entries with a
 * `state`, markers and fences on the user, conversation claims) to the chain (docs/ledger.md), run by
 * `npm run migrate` and once by an API start. Meant to run while nothing else writes the ledger;
 * idempotent: a user is moved in one update at the end of their turn, entries keep their ids.
 *
 * What the old reconciler would have decided is decided here once: a pending entry whose marker is on
 * the user was applied, one without it moved nothing; a marker that describes an entry never written
 * is that entry, applied. Failed entries moved nothing and stay behind in `ledgerentries`, which is
 * left as it was (an operator may drop it once the report is read).
 */
import mongoose, { Types } from "mongoose";
import { LedgerEntry } from "../models/ledger-entry";
import { ConversationJob } from "../models/conversation-job";
import { User } from "../models/user";
import { releaseHold } from "../ledger/holds";
import { LEDGER_MIGRATION_ID } from "../ledger/migrated";

/** An entry as the old format stored it (or as a fresh commit's marker described it). */
interface OldEntry {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  key: string;
  kind: string;
  amount: number;
  state?: string;
  feature?: string | null;
  reason?: string;
  details?: string;
  holdState?: string | null;
  jobId?: string | null;
  queue?: string | null;
  actor?: string;
  conversationId?: string | null;
  spendDay?: string | null;
  createdAt: Date;
  updatedAt?: Date;
}

interface OldUser {
  _id: Types.ObjectId;
  coins?: number;
  spendDay?: string | null;
  spentToday?: number;
  pendingEntries?: Record<string, unknown> | null;
  pendingLedger?: Types.ObjectId[] | null;
}

export interface LedgerMigrationReport {
  users: number;
  entries: number;
  /** Entries a pending state or a marker left, found applied. */
  recovered: number;
  /** Users whose balance is not the sum of their entries: left unmoved (the ledger refuses them) for an operator. */
  mismatched: { userId: string; coins: number; sum: number }[];
  releasesFinished: number;
  conversationJobs: number;
}

function described(userId: Types.ObjectId, hex: string, marker: unknown): OldEntry | null {
  if (typeof marker !== "object" || marker === null || typeof (marker as { key?: unknown }).key !== "string") return null;
  const { at, ...fields } = marker as Omit<OldEntry, "_id" | "userId" | "createdAt"> & { at: Date };
  return { ...fields, _id: new Types.ObjectId(hex), userId, state: "applied", createdAt: at };
}

/** The entries that moved the user's balance, oldest first; and how many of them a crash left unfinished. */
function appliedEntries(user: OldUser, entries: OldEntry[]): { applied: OldEntry[]; recovered: number } {
  const marked = new Set([...(user.pendingLedger ?? []).map(String), ...Object.keys(user.pendingEntries ?? {})]);
  const stored = new Set(entries.map((e) => String(e._id)));
  const committed = entries.filter((e) => e.state === "pending" && marked.has(String(e._id)));
  const written = Object.entries(user.pendingEntries ?? {})
    .filter(([hex]) => !stored.has(hex))
    .map(([hex, marker]) => described(user._id, hex, marker))
    .filter((e): e is OldEntry => e !== null);
  const applied = [...entries.filter((e) => e.state === "applied"), ...committed, ...written];
  applied.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || String(a._id).localeCompare(String(b._id)));
  return { applied, recovered: committed.length + written.length };
}

async function migrateUser(user: OldUser, report: LedgerMigrationReport): Promise<void> {
  const old = mongoose.connection.collection<OldEntry>("ledgerentries");
  const { applied, recovered } = appliedEntries(user, await old.find({ userId: user._id }).toArray());
  let balance = 0;
  const chain = applied.map((e, i) => {
    balance += e.amount;
    return {
      _id: e._id,
      userId: user._id,
      seq: i + 1,
      key: e.key,
      kind: e.kind,
      feature: e.feature ?? null,
      amount: e.amount,
      balanceAfter: balance,
      spendDay: e.spendDay ?? null,
      spentToday: 0,
      reason: e.reason ?? e.kind,
      details: e.details ?? "",
      holdState: e.holdState ?? null,
      jobId: e.jobId ?? null,
      queue: e.queue ?? null,
      actor: e.actor ?? "user",
      createdAt: e.createdAt,
      updatedAt: e.updatedAt ?? e.createdAt,
      __v: 0,
    };
  });
  const coins = user.coins ?? 0;
  if (balance !== coins) {
    report.mismatched.push({ userId: String(user._id), coins, sum: balance });
    return;
  }
  const spending = { spendDay: user.spendDay ?? null, spentToday: user.spentToday ?? 0 };
  if (chain.length) Object.assign(chain.at(-1)!, spending);
  if (chain.length) {
    await LedgerEntry.collection.insertMany(chain, { ordered: false }).catch((error: unknown) => {
      // Entries a run cut short already moved: they keep their ids, so they are the same ones.
      const writeErrors = (error as { writeErrors?: { code?: number }[] }).writeErrors ?? [];
      if (writeErrors.length === 0 || writeErrors.some((w) => w.code !== 11000)) throw error;
    });
  }
  const links = applied.filter((e) => e.conversationId && e.jobId);
  for (const e of links) await linkJob(user._id, e.jobId!, e.conversationId!);
  await User.collection.updateOne(
    { _id: user._id, ledgerSeq: { $exists: false } },
    { $set: { ledgerSeq: chain.length, coins, ...spending }, $unset: { pendingEntries: "", pendingLedger: "", voidEntries: "" } },
  );
  report.users += 1;
  report.entries += chain.length;
  report.recovered += recovered;
  report.conversationJobs += links.length;
}

async function linkJob(userId: Types.ObjectId, jobId: string, conversationId: string): Promise<void> {
  await ConversationJob.collection
    .updateOne({ userId, jobId }, { $setOnInsert: { conversationId } }, { upsert: true })
    .catch((error: unknown) => {
      if ((error as { code?: number }).code !== 11000) throw error;
    });
}

/**
 * A release the old format left `releasing` is finished by the chain's own release, unless a refund of
 * it (under `release:<key>` or an old `release:<key>:retry:<n>`) is in the chain already.
 */
async function finishReleases(report: LedgerMigrationReport): Promise<void> {
  const releasing = await LedgerEntry.collection
    .find<{ _id: Types.ObjectId; key: string; userId: Types.ObjectId }>({ holdState: "releasing" })
    .toArray();
  for (const hold of releasing) {
    const prefix = `release:${hold.key}`;
    const refunds = await LedgerEntry.collection
      .find<{ key: string }>({ userId: hold.userId, kind: "release" }, { projection: { key: 1 } })
      .toArray();
    if (refunds.some((r) => r.key === prefix || r.key.startsWith(`${prefix}:retry:`))) {
      await LedgerEntry.collection.updateOne({ _id: hold._id, holdState: "releasing" }, { $set: { holdState: "released" } });
    } else {
      await releaseHold(hold.key, "release finished by the ledger migration", "migration");
    }
    report.releasesFinished += 1;
  }
}

/** Moves every user not in the chain format yet, then marks the ledger migrated. */
export async function migrateLedger(): Promise<LedgerMigrationReport> {
  const report: LedgerMigrationReport = {
    users: 0,
    entries: 0,
    recovered: 0,
    mismatched: [],
    releasesFinished: 0,
    conversationJobs: 0,
  };
  const users = User.collection.find<OldUser>(
    { ledgerSeq: { $exists: false } },
    { projection: { coins: 1, spendDay: 1, spentToday: 1, pendingEntries: 1, pendingLedger: 1 } },
  );
  for await (const user of users) await migrateUser(user, report);
  const claims = await mongoose.connection
    .collection<{ userId: Types.ObjectId; jobId: string; conversationId: string }>("conversationfilings")
    .find({})
    .toArray();
  for (const claim of claims) await linkJob(claim.userId, claim.jobId, claim.conversationId);
  report.conversationJobs += claims.length;
  const migrations = mongoose.connection.collection<{ _id: string }>("migrations");
  await migrations.updateOne({ _id: LEDGER_MIGRATION_ID }, { $set: { finishedAt: new Date() } }, { upsert: true });
  await finishReleases(report);
  return report;
}

/** The migration as an API start runs it: null when the ledger is in the chain format already. */
export async function migrateLedgerOnce(): Promise<LedgerMigrationReport | null> {
  const migrations = mongoose.connection.collection<{ _id: string }>("migrations");
  if (await migrations.findOne({ _id: LEDGER_MIGRATION_ID }, { projection: { _id: 1 } })) return null;
  return migrateLedger();
}
