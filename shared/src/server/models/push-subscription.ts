import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { LANGUAGES } from "../../constants";

/**
 * One device's Web Push subscription (the browser's PushSubscription): whose it is, the login
 * session it was made in (ended with that session: logout, password change), and the language its
 * notifications are written in. The endpoint is unique: the same device subscribing again replaces
 * its record. Removed when the push service answers 404 or 410.
 */
const pushSubscriptionSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    sessionId: { type: String, required: true },
    endpoint: { type: String, required: true },
    p256dh: { type: String, required: true },
    auth: { type: String, required: true },
    language: { type: String, enum: LANGUAGES, required: true },
  },
  { timestamps: true },
);
pushSubscriptionSchema.index({ endpoint: 1 }, { unique: true });
pushSubscriptionSchema.index({ userId: 1 });
pushSubscriptionSchema.index({ sessionId: 1 });

export type PushSubscriptionDoc = InferSchemaType<typeof pushSubscriptionSchema> & { _id: Types.ObjectId };
export const PushSubscriptionModel = mongoose.model("PushSubscription", pushSubscriptionSchema);
