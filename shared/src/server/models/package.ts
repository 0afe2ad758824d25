import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { SUBSCRIPTION_TYPES } from "../../constants";

/** A wallet package an administrator sells (SPEC §3); assignments keep their own copy of its terms. */
const walletPackageSchema = new Schema(
  {
    name: { type: String, required: true },
    coins: { type: Number, required: true, min: 0 },
    /** Decimal price, rounded to cents on input. */
    price: { type: Number, required: true, min: 0 },
    subscriptionType: { type: String, enum: SUBSCRIPTION_TYPES, default: "daily" },
    autoRenew: { type: Boolean, default: true },
    description: { type: String, default: "" },
    status: { type: String, enum: ["active", "inactive"], default: "active" },
  },
  { timestamps: true },
);

export type WalletPackageDoc = InferSchemaType<typeof walletPackageSchema> & {
  _id: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
};
export const WalletPackageModel = mongoose.model("WalletPackage", walletPackageSchema);
