/**
 * Whether the stored ledger is in the chain format (docs/ledger.md, point 7): the migration
 * (migrations/ledger.ts) records it in the `migrations` collection when done. Until then nothing
 * moves: a balance computed from an unnumbered ledger would be wrong.
 */
import mongoose from "mongoose";
import { LedgerNotMigratedError } from "./errors";

export const LEDGER_MIGRATION_ID = "ledger-chain";

/** The databases (by name) found migrated: once is enough, the format never goes back. */
const migrated = new Set<string>();

export async function ensureMigrated(): Promise<void> {
  const database = mongoose.connection.name;
  if (migrated.has(database)) return;
  const done = await mongoose.connection
    .collection<{ _id: string }>("migrations")
    .findOne({ _id: LEDGER_MIGRATION_ID }, { projection: { _id: 1 } });
  if (!done) throw new LedgerNotMigratedError();
  migrated.add(database);
}
