import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { ADMIN_ROLES } from "../../constants";

const adminSchema = new Schema(
  {
    username: { type: String, required: true, unique: true },
    passwordHash: { type: String, required: true },
    role: { type: String, enum: ADMIN_ROLES, required: true },
    isActive: { type: Boolean, default: true },
    lastLoginAt: { type: Date, default: null },
    /** Raised by a password reset or a deactivation; sessions holding an older value get 401 (requireAdmin). */
    sessionVersion: { type: Number, default: 0 },
  },
  { timestamps: true },
);

export type AdminDoc = InferSchemaType<typeof adminSchema> & { _id: Types.ObjectId };
export const Admin = mongoose.model("Admin", adminSchema);
