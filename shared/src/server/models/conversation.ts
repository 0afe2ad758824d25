import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { PERSONA_IDS } from "../../constants";

const messageSchema = new Schema(
  {
    type: { type: String, enum: ["user", "ai"], required: true },
    content: { type: String, default: "" },
    timestamp: { type: Date, required: true },
    /** The Doctor screen's own id of the message. */
    clientId: { type: String, default: null },
  },
  { _id: false },
);

/** A saved chat thread (SPEC §3); the text chat and the Doctor keep theirs here. */
const conversationSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true, index: true },
    /**
     * The id clients use: our ObjectId hex for conversations created with "new", or the
     * Doctor screen's own "conv_..." id. Unique across users, so an id names one owner.
     */
    clientId: { type: String, required: true, unique: true },
    title: { type: String, required: true },
    avatarType: { type: String, enum: PERSONA_IDS, default: "general" },
    messages: { type: [messageSchema], default: [] },
    /** Kept beside the messages so the list can leave them out. */
    messageCount: { type: Number, default: 0 },
    /** Text of the last message, for the Doctor list and its search. */
    lastMessage: { type: String, default: "" },
  },
  { timestamps: true },
);
conversationSchema.index({ userId: 1, updatedAt: -1 });

export type ConversationDoc = InferSchemaType<typeof conversationSchema> & {
  _id: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
};
export const Conversation = mongoose.model("Conversation", conversationSchema);
