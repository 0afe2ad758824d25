import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { SMS_TYPES } from "../../schemas/sms-integration";

/** One SMPP gateway of the admin SMS Config list (SPEC §3). */
const smsGatewayConfigSchema = new Schema(
  {
    gatewayName: { type: String, required: true },
    shortcode: { type: String, required: true },
    port: { type: Number, required: true },
    /** MT: the gateway replies are sent through; MO: the one inbound messages arrive from. */
    smsType: { type: String, enum: SMS_TYPES, required: true },
    /** Host of the SMPP server as a URL (smpp://host or any scheme; the port field wins). */
    apiUrl: { type: String, required: true },
    username: { type: String, required: true },
    password: { type: String, required: true },
  },
  { timestamps: true },
);
smsGatewayConfigSchema.index({ shortcode: 1, smsType: 1 });

export type SmsGatewayConfigDoc = InferSchemaType<typeof smsGatewayConfigSchema> & { _id: Types.ObjectId };
export const SmsGatewayConfig = mongoose.model("SmsGatewayConfig", smsGatewayConfigSchema);
