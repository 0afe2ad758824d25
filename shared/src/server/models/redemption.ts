import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

/** A batch of redemption codes an administrator made: what each code is worth, how often, until when. */
const redemptionBatchSchema = new Schema(
  {
    label: { type: String, required: true },
    coins: { type: Number, required: true, min: 1 },
    usesPerCode: { type: Number, required: true, min: 1 },
    count: { type: Number, required: true, min: 1 },
    expiresAt: { type: Date, required: true },
    enabled: { type: Boolean, default: true },
    createdBy: { type: String, required: true },
  },
  { timestamps: true },
);
redemptionBatchSchema.index({ createdAt: -1 });

/**
 * One code, stored only as its SHA-256 (codes carry 100 random bits, so the hash cannot be
 * reversed by guessing). `uses` only grows, and never past the batch's uses per code.
 */
const redemptionCodeSchema = new Schema({
  batchId: { type: Schema.Types.ObjectId, required: true, index: true },
  hash: { type: String, required: true },
  uses: { type: Number, default: 0 },
});
redemptionCodeSchema.index({ hash: 1 }, { unique: true });

/** One subscriber's use of one code: unique per (code, user), credited once under its own ledger key. */
const redemptionUseSchema = new Schema(
  {
    codeId: { type: Schema.Types.ObjectId, required: true },
    batchId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    coins: { type: Number, required: true },
    /** The code's use count took this use (only then may it be credited). */
    counted: { type: Boolean, default: false },
    credited: { type: Boolean, default: false },
  },
  { timestamps: true },
);
redemptionUseSchema.index({ codeId: 1, userId: 1 }, { unique: true });
redemptionUseSchema.index({ batchId: 1, createdAt: -1 });
redemptionUseSchema.index({ credited: 1, createdAt: 1 });

export type RedemptionBatchDoc = InferSchemaType<typeof redemptionBatchSchema> & {
  _id: Types.ObjectId;
  createdAt: Date;
};
export type RedemptionCodeDoc = InferSchemaType<typeof redemptionCodeSchema> & { _id: Types.ObjectId };
export type RedemptionUseDoc = InferSchemaType<typeof redemptionUseSchema> & { _id: Types.ObjectId; createdAt: Date };

export const RedemptionBatch = mongoose.model("RedemptionBatch", redemptionBatchSchema);
export const RedemptionCode = mongoose.model("RedemptionCode", redemptionCodeSchema);
export const RedemptionUse = mongoose.model("RedemptionUse", redemptionUseSchema);
