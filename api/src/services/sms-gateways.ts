/** The admin SMS Config list: SMPP gateways (SPEC §2 SMS Config, §7 admin/sms-config.php). */
import { MASKED_SECRET, type SmsGatewayConfigInput } from "@storefront/shared";
import { SmsGatewayConfig, type SmsGatewayConfigDoc } from "@storefront/shared/server";
import { notFound } from "../errors";

function view(doc: SmsGatewayConfigDoc) {
  return {
    id: String(doc._id),
    gatewayName: doc.gatewayName,
    shortcode: doc.shortcode,
    port: doc.port,
    smsType: doc.smsType,
    apiUrl: doc.apiUrl,
    username: doc.username,
    // Passwords never leave the server; sending the mask back keeps the stored one.
    password: MASKED_SECRET,
  };
}

export async function listGateways() {
  const docs = await SmsGatewayConfig.find().sort({ createdAt: 1 }).lean<SmsGatewayConfigDoc[]>();
  return docs.map(view);
}

export async function createGateway(input: SmsGatewayConfigInput) {
  const doc = await SmsGatewayConfig.create(input);
  return view(doc.toObject() as SmsGatewayConfigDoc);
}

export async function updateGateway(id: string, input: SmsGatewayConfigInput) {
  const { password, ...rest } = input;
  const doc = await SmsGatewayConfig.findByIdAndUpdate(
    id,
    { $set: password === MASKED_SECRET ? rest : input },
    { returnDocument: "after", lean: true },
  );
  if (!doc) throw notFound("SMS gateway configuration not found");
  return view(doc as SmsGatewayConfigDoc);
}

export async function deleteGateway(id: string) {
  const result = await SmsGatewayConfig.deleteOne({ _id: id });
  if (result.deletedCount === 0) throw notFound("SMS gateway configuration not found");
}
