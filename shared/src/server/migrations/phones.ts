/**
 * Rewrites every subscriber phone to its E.164 form (shared/src/phone.ts). Idempotent: a row
 * already canonical is left alone. Two rows that are one number are reported, never merged: each
 * holds its own coins and history, and only an operator can tell which one the person uses.
 */
import mongoose from "mongoose";
import { canonicalPhone, type PhoneCountry } from "../../phone";
import { User } from "../models/index";
import { publishCacheChange } from "../cache-bus";

export interface PhoneDuplicate {
  /** The E.164 form both rows stand for. */
  canonical: string;
  /** The row left as it was, and its stored phone. */
  userId: string;
  phone: string;
  /** The row that already holds the canonical form (or took it first in this run). */
  keptUserId: string;
}

export interface PhoneMigrationReport {
  scanned: number;
  rewritten: number;
  duplicates: PhoneDuplicate[];
}

export async function migratePhones(defaultCountry: PhoneCountry): Promise<PhoneMigrationReport> {
  const report: PhoneMigrationReport = { scanned: 0, rewritten: 0, duplicates: [] };
  const cursor = User.find({}, { phone: 1 }).lean<{ _id: unknown; phone: string }>().cursor();
  for await (const user of cursor) {
    report.scanned += 1;
    const canonical = canonicalPhone(user.phone, defaultCountry);
    if (canonical === user.phone) continue;
    const holder = await User.findOne({ phone: canonical }, { _id: 1 }).lean<{ _id: unknown }>();
    if (holder) {
      report.duplicates.push({ canonical, userId: String(user._id), phone: user.phone, keptUserId: String(holder._id) });
      continue;
    }
    try {
      // Conditional on the old value: a concurrent run (two API processes starting) rewrites once.
      const res = await User.updateOne({ _id: user._id, phone: user.phone }, { $set: { phone: canonical } });
      report.rewritten += res.modifiedCount;
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
      const taker = await User.findOne({ phone: canonical }, { _id: 1 }).lean<{ _id: unknown }>();
      report.duplicates.push({ canonical, userId: String(user._id), phone: user.phone, keptUserId: String(taker?._id ?? "") });
    }
  }
  // The API's per-process user cache holds phones: every process rereads them.
  if (report.rewritten) await publishCacheChange("user");
  return report;
}

/** Where a finished start-up migration is recorded, so a later start skips its scan. */
const MIGRATIONS = "migrations";

/**
 * The phone migration as an API start runs it: once per data set and default country. Every row
 * written since stores the canonical form, so scanning every user again at each start (and each
 * restart after a crash) would only cost time that grows with the user count. `npm run migrate`
 * still scans on demand. Null when an earlier start already ran it.
 */
export async function migratePhonesOnce(defaultCountry: PhoneCountry): Promise<PhoneMigrationReport | null> {
  const migrations = mongoose.connection.collection<{ _id: string }>(MIGRATIONS);
  const id = `phones-e164:${defaultCountry}`;
  if (await migrations.findOne({ _id: id }, { projection: { _id: 1 } })) return null;
  const report = await migratePhones(defaultCountry);
  await migrations.updateOne(
    { _id: id },
    { $set: { finishedAt: new Date(), scanned: report.scanned, rewritten: report.rewritten } },
    { upsert: true },
  );
  return report;
}
