import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

export const LEDGER_KINDS = ["debit", "hold", "release", "refund", "credit", "admin_set", "renewal", "reset"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

const ledgerEntrySchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true, index: true },
    /** Idempotency key: the same key applied twice changes nothing. */
    key: { type: String, required: true, unique: true },
    kind: { type: String, enum: LEDGER_KINDS, required: true },
    feature: { type: String, default: null },
    /** Signed change of the balance. */
    amount: { type: Number, required: true },
    balanceAfter: { type: Number, default: null },
    /** pending: written, balance maybe not yet changed; applied: counted; failed: never counted. */
    state: { type: String, enum: ["pending", "applied", "failed"], default: "pending", index: true },
    reason: { type: String, default: "" },
    details: { type: String, default: "" },
    /** For holds: held until the job settles or releases it. */
    holdState: { type: String, enum: ["held", "settled", "releasing", "released", null], default: null, index: true },
    jobId: { type: String, default: null },
    queue: { type: String, default: null },
    /** Who caused the entry: "user", "worker", "admin:<id>", "scheduler". */
    actor: { type: String, default: "user" },
    failure: { type: String, default: null },
    /** Chat charges: the conversation (its client id) they belong to. */
    conversationId: { type: String, default: null },
    /** Debits and holds: the UTC day whose spending total (the daily cap's) the entry counted toward. */
    spendDay: { type: String, default: null },
    /** While pending: the process executing it (`PROCESS_ID`), so a reconciler can tell when it has ended. */
    executor: { type: String, default: null },
    /** When the executor of this pending entry gave it up after a database error (`handOver`). */
    executorGoneAt: { type: Date, default: null },
    /** While a hold is `releasing`: the process refunding it (`PROCESS_ID`), so a reconciler can tell when it has ended. */
    releaser: { type: String, default: null },
  },
  { timestamps: true },
);
ledgerEntrySchema.index({ state: 1, createdAt: 1 });
ledgerEntrySchema.index({ holdState: 1, updatedAt: 1 });
ledgerEntrySchema.index({ userId: 1, createdAt: -1 });
// The cost of each conversation in a user's list (conversationCosts).
ledgerEntrySchema.index({ userId: 1, conversationId: 1 });

export type LedgerEntryDoc = InferSchemaType<typeof ledgerEntrySchema> & {
  _id: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
};
export const LedgerEntry = mongoose.model("LedgerEntry", ledgerEntrySchema);
