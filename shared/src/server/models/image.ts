import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { IMAGE_AGENT_IDS } from "../../constants";
import type { ImageRecord } from "../../schemas/images";

/**
 * A picture in a user's image history (SPEC §3 "Generated image"), written only through
 * shared/src/server/images.ts (the image worker's results, images/save.php, images/delete.php).
 */
const imageSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    /** The id clients use: our ObjectId hex for pictures we made, else the client's own id. */
    clientId: { type: String, required: true },
    /** Storage key of the file when it is ours ("images/<userId>/<id>.png"); null for foreign URLs. */
    key: { type: String, default: null },
    url: { type: String, required: true },
    prompt: { type: String, default: "" },
    size: { type: String, default: "" },
    mode: { type: String, enum: ["generate", "edit"], default: "generate" },
    agent: { type: String, enum: [...IMAGE_AGENT_IDS, null], default: null },
    /** The queue job that made it, when a job did. */
    jobId: { type: String, default: null },
    timestamp: { type: Date, required: true },
  },
  { timestamps: true },
);
imageSchema.index({ userId: 1, clientId: 1 }, { unique: true });
imageSchema.index({ userId: 1, timestamp: -1 });

export type ImageDoc = InferSchemaType<typeof imageSchema> & { _id: Types.ObjectId; createdAt: Date; updatedAt: Date };
/** Collection "images" (the admin dashboard counts it). */
export const ImageModel = mongoose.model("Image", imageSchema);

/** How a stored picture is answered to clients (images/history.php, the image job's result). */
export function toImageRecord(doc: Pick<ImageDoc, "clientId" | "url" | "prompt" | "size" | "mode" | "timestamp">): ImageRecord {
  return {
    id: doc.clientId,
    url: doc.url,
    prompt: doc.prompt,
    size: doc.size,
    mode: doc.mode,
    timestamp: doc.timestamp.toISOString(),
  };
}
