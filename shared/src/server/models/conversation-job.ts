import mongoose, { Schema } from "mongoose";

/**
 * Which conversation a user's job belongs to: written by a chat call that names its conversation and
 * by a save listing its replies' jobs (the first conversation to name a job keeps it). A
 * conversation's cost is its jobs' hold and release entries (api/src/services/conversation-costs.ts);
 * the ledger itself knows no conversations.
 */
const conversationJobSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    jobId: { type: String, required: true },
    conversationId: { type: String, required: true },
  },
  { versionKey: false },
);
conversationJobSchema.index({ userId: 1, jobId: 1 }, { unique: true });
conversationJobSchema.index({ userId: 1, conversationId: 1 });

export const ConversationJob = mongoose.model("ConversationJob", conversationJobSchema, "conversationjobs");
