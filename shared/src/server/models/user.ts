import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

const userSchema = new Schema(
  {
    /**
     * The number the account signs in with, in E.164. Absent once its owner proved it from another
     * account while this one had not (`releasedPhone` then holds it, for signing in).
     */
    phone: { type: String },
    /** When the number was proven by a code sent to it; until then no SMS is tied to the account. */
    phoneVerifiedAt: { type: Date, default: null },
    /** The number a proven owner took back from this unproven account; it still signs in with it. */
    releasedPhone: { type: String, default: undefined },
    passwordHash: { type: String, required: true },
    displayName: { type: String, default: "" },
    country: { type: String, default: "" },
    /** Storage key of the avatar image, served by the profile route. */
    avatarKey: { type: String, default: null },
    isActive: { type: Boolean, default: true },
    /** Set when the low-balance notice went out; cleared once the balance is back at or above the threshold. */
    lowBalanceAlerted: { type: Boolean, default: false },
    /** Crossings below the threshold so far; numbers each one's SMS (low-balance.ts). */
    lowBalanceAlerts: { type: Number, default: 0 },
    /** Balance: a copy of the newest ledger entry's `balanceAfter`, written only by the ledger (shared/src/server/ledger/). */
    coins: { type: Number, default: 0, min: 0 },
    /** Coins spent on `spendDay` (UTC): copied from the newest ledger entry with the balance. */
    spendDay: { type: String, default: null },
    spentToday: { type: Number, default: 0 },
    /** The subscriber's own settings (wallet/settings.php); null: the tier's default / configuration. */
    dailyCap: { type: Number, default: null },
    lowBalanceThreshold: { type: Number, default: null },
    smsAlerts: { type: Boolean, default: false },
    /** The lowest tier shown, set by an administrator. */
    tier: { type: Number, default: 1, min: 1, max: 10 },
    /**
     * The `seq` of the ledger entry `coins`, `spendDay` and `spentToday` were copied from (the head of
     * the user's chain, docs/ledger.md): a copy is made only over an older one.
     */
    ledgerSeq: { type: Number, default: 0 },
  },
  { timestamps: true },
);

export type UserDoc = InferSchemaType<typeof userSchema> & { _id: Types.ObjectId };
// Sparse: a released account has no number (migrations/phone-proof.ts replaces a unique index of every account with it).
userSchema.index({ phone: 1 }, { unique: true, sparse: true });
userSchema.index({ releasedPhone: 1 }, { sparse: true });
// Signups per day (admin/analytics.php).
userSchema.index({ createdAt: 1 });
export const User = mongoose.model("User", userSchema);
