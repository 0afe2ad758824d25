import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { SUBSCRIPTION_TYPES } from "../../constants";

/**
 * A package given to a user. The package's terms are copied in, so editing or deleting the
 * package never changes what a running subscription renews with.
 */
const packageAssignmentSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true, index: true },
    packageId: { type: Schema.Types.ObjectId, required: true },
    packageName: { type: String, required: true },
    coins: { type: Number, required: true, min: 0 },
    price: { type: Number, required: true, min: 0 },
    subscriptionType: { type: String, enum: SUBSCRIPTION_TYPES, required: true },
    isActive: { type: Boolean, default: true },
    /**
     * "<userId>:<packageId>" while active, absent otherwise: its unique sparse index is what
     * blocks a second active assignment of the same package, even under concurrent requests.
     */
    activeKey: { type: String, default: undefined },
    autoRenew: { type: Boolean, default: true },
    /** End of the current period; the renewal schedule acts once it has passed. */
    expiresAt: { type: Date, default: null },
    /** Periods paid so far after the first (0 until the first renewal); part of ledger keys. */
    period: { type: Number, default: 0 },
    /** The coins of period 0 are not yet credited (the schedule finishes it after a crash). */
    creditPending: { type: Boolean, default: true },
    assignedBy: { type: String, default: null },
    /**
     * A subscriber's purchase (wallet/buy.php): its request key (unique: one purchase per key) and
     * whether the operator has taken the payment ("pending" until it has; never credited before).
     * Absent for packages an administrator gave.
     */
    purchaseKey: { type: String, default: undefined },
    payment: { type: String, enum: ["pending", "paid", null], default: null },
    paymentReference: { type: String, default: null },
    /**
     * A purchase: the billing (its name) that was asked to charge it and the proven number it was
     * billed to, so a retry asks the same billing with the same request, never another one.
     */
    billing: { type: String, default: undefined },
    billedPhone: { type: String, default: undefined },
    lastRenewedAt: { type: Date, default: null },
    endedAt: { type: Date, default: null },
    /** removed | expired | renewal_failed | user_inactive | billing_unavailable | phone_unproven (EndReason) */
    endedReason: { type: String, default: null },
  },
  { timestamps: true },
);
packageAssignmentSchema.index({ activeKey: 1 }, { unique: true, sparse: true });
packageAssignmentSchema.index({ isActive: 1, expiresAt: 1 });
packageAssignmentSchema.index({ purchaseKey: 1 }, { unique: true, sparse: true });
packageAssignmentSchema.index({ payment: 1, createdAt: 1 });

export type PackageAssignmentDoc = InferSchemaType<typeof packageAssignmentSchema> & {
  _id: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
};
export const PackageAssignmentModel = mongoose.model("PackageAssignment", packageAssignmentSchema);

export const activeAssignmentKey = (userId: string | Types.ObjectId, packageId: string | Types.ObjectId) =>
  `${String(userId)}:${String(packageId)}`;

/** Ledger key of the coins of an assignment's period (0 = the assignment itself, n = the n-th renewal). */
export const assignmentCreditKey = (assignmentId: string | Types.ObjectId, period: number) =>
  `package:${String(assignmentId)}:${period}`;
