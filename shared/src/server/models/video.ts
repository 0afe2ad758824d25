import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { VIDEO_MODEL_IDS } from "../../constants";
import { VIDEO_RATIOS, VIDEO_RESOLUTIONS, VIDEO_STATUSES } from "../../schemas/videos";

/** A video request and its outcome (SPEC §3 "Video"); its _id is the video_id clients poll. */
const videoSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    prompt: { type: String, required: true },
    duration: { type: Number, required: true },
    model: { type: String, enum: VIDEO_MODEL_IDS, required: true },
    ratio: { type: String, enum: VIDEO_RATIOS, required: true },
    resolution: { type: String, enum: [...VIDEO_RESOLUTIONS, null], default: null },
    status: { type: String, enum: VIDEO_STATUSES, default: "processing" },
    /** The queue job paying for it; null only in the instant before the job is accepted. */
    jobId: { type: String, default: null },
    coinsUsed: { type: Number, default: 0 },
    estimatedSeconds: { type: Number, required: true },
    /** Storage key of the finished file ("videos/<userId>/<id>.mp4"). */
    key: { type: String, default: null },
    providerTaskId: { type: String, default: null },
    error: { type: String, default: null },
    completedAt: { type: Date, default: null },
  },
  { timestamps: true },
);
videoSchema.index({ userId: 1, createdAt: -1 });
videoSchema.index({ jobId: 1 });

export type VideoDoc = InferSchemaType<typeof videoSchema> & { _id: Types.ObjectId; createdAt: Date; updatedAt: Date };
export const VideoModel = mongoose.model("Video", videoSchema);
