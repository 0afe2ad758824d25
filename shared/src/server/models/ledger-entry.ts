import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

export const LEDGER_KINDS = ["debit", "hold", "release", "refund", "credit", "admin_set", "renewal", "reset"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export const HOLD_STATES = ["held", "settled", "releasing", "released"] as const;
export type HoldState = (typeof HOLD_STATES)[number];

/**
 * One movement of one account, never changed but for a hold's `holdState` (docs/ledger.md). Written
 * by shared/src/server/ledger/ through the driver only.
 */
const ledgerEntrySchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    /** The entry's place in its user's chain: 1, 2, 3, … (unique with userId). */
    seq: { type: Number, required: true },
    /** Idempotency key: the same key applied twice changes nothing. */
    key: { type: String, required: true, unique: true },
    kind: { type: String, enum: LEDGER_KINDS, required: true },
    feature: { type: String, default: null },
    /** Signed change of the balance. */
    amount: { type: Number, required: true },
    /** The balance right after this entry: the previous entry's plus `amount`. */
    balanceAfter: { type: Number, required: true },
    /** The UTC day whose spending (the daily cap's counter) `spentToday` is, after this entry. */
    spendDay: { type: String, default: null },
    spentToday: { type: Number, default: 0 },
    reason: { type: String, default: "" },
    details: { type: String, default: "" },
    /** Holds only: held until the job settles it or it is released (releasing, then released). */
    holdState: { type: String, enum: [...HOLD_STATES, null], default: null },
    jobId: { type: String, default: null },
    queue: { type: String, default: null },
    /** Who caused the entry: "user", "worker", "admin:<id>", "scheduler". */
    actor: { type: String, default: "user" },
  },
  { timestamps: true },
);
ledgerEntrySchema.index({ userId: 1, seq: 1 }, { unique: true });
ledgerEntrySchema.index({ holdState: 1, updatedAt: 1 });
ledgerEntrySchema.index({ userId: 1, createdAt: -1 });
ledgerEntrySchema.index({ createdAt: 1 });
// A conversation's cost: the user's entries of its jobs (conversation-costs.ts).
ledgerEntrySchema.index({ userId: 1, jobId: 1 });

export type LedgerEntryDoc = InferSchemaType<typeof ledgerEntrySchema> & {
  _id: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
};
/** The `ledger` collection; `ledgerentries` holds the old format until `npm run migrate` (migrations/ledger.ts). */
export const LedgerEntry = mongoose.model("LedgerEntry", ledgerEntrySchema, "ledger");
