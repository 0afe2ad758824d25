import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

/** One administrator change: who, what, the state before and after, when (createdAt). */
const auditLogSchema = new Schema(
  {
    adminId: { type: String, required: true, index: true },
    adminUsername: { type: String, required: true },
    adminRole: { type: String, required: true },
    /** "<area>.<verb>", e.g. "package.update", "user.toggle". */
    action: { type: String, required: true, index: true },
    targetType: { type: String, required: true },
    targetId: { type: String, default: null },
    before: { type: Schema.Types.Mixed, default: null },
    after: { type: Schema.Types.Mixed, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false }, minimize: false },
);
auditLogSchema.index({ createdAt: -1 });

export type AuditLogDoc = InferSchemaType<typeof auditLogSchema> & { _id: Types.ObjectId; createdAt: Date };
export const AuditLog = mongoose.model("AuditLog", auditLogSchema);
