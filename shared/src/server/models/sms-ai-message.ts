import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { LANGUAGES } from "../../constants";

/**
 * The server SMS history of the SMS AI screen (SPEC §3 "SMS conversation message"): each
 * exchange is the user's message and the AI reply, one document each. `jobId` + `role` is unique
 * so a retried request (same job) never stores an exchange twice.
 */
const smsAiMessageSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    role: { type: String, enum: ["user", "assistant"], required: true },
    message: { type: String, required: true },
    timestamp: { type: Date, required: true },
    sender: { type: String, required: true },
    recipient: { type: String, required: true },
    language: { type: String, enum: LANGUAGES, default: "en" },
    /** The chat job that produced the reply (both halves of an exchange carry it). */
    jobId: { type: String, required: true },
  },
  { timestamps: true },
);
smsAiMessageSchema.index({ userId: 1, timestamp: -1 });
smsAiMessageSchema.index({ jobId: 1, role: 1 }, { unique: true });

export type SmsAiMessageDoc = InferSchemaType<typeof smsAiMessageSchema> & { _id: Types.ObjectId };
export const SmsAiMessage = mongoose.model("SmsAiMessage", smsAiMessageSchema);
