import mongoose, { Schema } from "mongoose";

/**
 * A saved conversation's claim on the charges of a job whose hold entry was not written yet when the
 * save filed the job's charges (its write owed while the database was away): the entry's late writer
 * files it under the conversation when it lands (ledger.ts, `fileUnderConversation`). Kept a day.
 */
const conversationFilingSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    jobId: { type: String, required: true },
    conversationId: { type: String, required: true },
    createdAt: { type: Date, default: () => new Date() },
  },
  { versionKey: false },
);
conversationFilingSchema.index({ userId: 1, jobId: 1 }, { unique: true });
conversationFilingSchema.index({ createdAt: 1 }, { expireAfterSeconds: 24 * 3600 });

export const ConversationFiling = mongoose.model("ConversationFiling", conversationFilingSchema);
