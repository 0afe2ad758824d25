import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

const userSchema = new Schema(
  {
    phone: { type: String, required: true, unique: true },
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
    /** Balance; changed only by the ledger (shared/src/server/ledger.ts). */
    coins: { type: Number, default: 0, min: 0 },
    /** Coins spent on `spendDay` (UTC), moved by the ledger in the same update as the balance. */
    spendDay: { type: String, default: null },
    spentToday: { type: Number, default: 0 },
    /** The subscriber's own settings (wallet/settings.php); null: the tier's default / configuration. */
    dailyCap: { type: Number, default: null },
    lowBalanceThreshold: { type: Number, default: null },
    smsAlerts: { type: Boolean, default: false },
    /** The lowest tier shown, set by an administrator. */
    tier: { type: Number, default: 1, min: 1, max: 10 },
    /** Ledger entries applied to `coins` whose entry is not yet marked applied (crash recovery). */
    pendingLedger: { type: [Schema.Types.ObjectId], default: [] },
  },
  { timestamps: true },
);

export type UserDoc = InferSchemaType<typeof userSchema> & { _id: Types.ObjectId };
// Signups per day (admin/analytics.php).
userSchema.index({ createdAt: 1 });
export const User = mongoose.model("User", userSchema);
