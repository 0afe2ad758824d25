import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { LANGUAGES } from "../../constants";

/**
 * Earlier SMS AI answers, looked up by sms/learned-response.php. Keyed by the owner, the
 * normalised message (rules.ts normaliseMessage) and the language: a reply was written with the
 * owner's conversation as context, so it is never served to anyone else.
 */
const learnedResponseSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    key: { type: String, required: true },
    language: { type: String, enum: LANGUAGES, required: true },
    /** The message as first typed, for reading the cache. */
    message: { type: String, required: true },
    response: { type: String, required: true },
    /** Times the lookup returned this answer. */
    hits: { type: Number, default: 0 },
  },
  { timestamps: true },
);
learnedResponseSchema.index({ userId: 1, key: 1, language: 1 }, { unique: true });

export type LearnedResponseDoc = InferSchemaType<typeof learnedResponseSchema> & { _id: Types.ObjectId };
export const LearnedResponse = mongoose.model("LearnedResponse", learnedResponseSchema);
