import mongoose, { Schema } from "mongoose";

/** A phone that sent STOP: no replies until it sends START. */
const smsOptOutSchema = new Schema(
  {
    phone: { type: String, required: true, unique: true },
    /** The inbound message that opted it out. */
    message_id: { type: String, default: null },
  },
  { timestamps: { createdAt: "created_at", updatedAt: false } },
);

export const SmsOptOut = mongoose.model("SmsOptOut", smsOptOutSchema);
