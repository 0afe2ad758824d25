import mongoose, { Schema, type Types } from "mongoose";
import { SMS_LOG_ACTIONS, type SmsLogAction } from "../../constants";

export interface SmsLogFields {
  action: SmsLogAction;
  user_id: Types.ObjectId | null;
  user_name: string;
  phone: string;
  details: string;
  message_id: string | null;
  key: string;
  created_at: Date;
}

/** One step of the SMS integration (SPEC §3 SMS log entry), written only through shared/src/server/sms-logs.ts. */
const smsLogSchema = new Schema<SmsLogFields>(
  {
    action: { type: String, enum: SMS_LOG_ACTIONS, required: true },
    user_id: { type: Schema.Types.ObjectId, default: null },
    user_name: { type: String, default: "" },
    phone: { type: String, default: "" },
    /** JSON text, shown pretty-printed by the admin screen. */
    details: { type: String, default: "{}" },
    /** The gateway's id of the inbound message this step belongs to. */
    message_id: { type: String, default: null },
    /** `<message key>:<step>` (sms-logs.ts): a retried job writes each step once (random for one-off entries). */
    key: { type: String, required: true, unique: true },
  },
  { timestamps: { createdAt: "created_at", updatedAt: false } },
);
smsLogSchema.index({ created_at: -1 });
smsLogSchema.index({ action: 1, created_at: -1 });
smsLogSchema.index({ user_id: 1, created_at: -1 });

export type SmsLogDoc = SmsLogFields & { _id: Types.ObjectId };
export const SmsLog = mongoose.model<SmsLogFields>("SmsLog", smsLogSchema);
