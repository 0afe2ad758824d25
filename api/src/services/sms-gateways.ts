/** The admin SMS Config list: SMPP gateways (SPEC §2 SMS Config, §7 admin/sms-config.php). */
import { MASKED_SECRET, type SmsGatewayConfigInput } from "@storefront/shared";
import { publishCacheChange, SmsGatewayConfig, type SmsGatewayConfigDoc } from "@storefront/shared/server";
import { badRequest, notFound } from "../errors";

function view(doc: SmsGatewayConfigDoc) {
  return {
    id: String(doc._id),
    gatewayName: doc.gatewayName,
    shortcode: doc.shortcode,
    port: doc.port,
    smsType: doc.smsType,
    apiUrl: doc.apiUrl,
    username: doc.username,
    // Passwords never leave the server: the list says one is set (every gateway has one).
    password_set: Boolean(doc.password),
  };
}

export async function listGateways() {
  const docs = await SmsGatewayConfig.find().sort({ createdAt: 1 }).lean<SmsGatewayConfigDoc[]>();
  return docs.map(view);
}

/** On update an omitted, empty or masked password keeps the stored one. */
type GatewayUpdate = Omit<SmsGatewayConfigInput, "password"> & { password?: string | undefined };

export async function createGateway(input: GatewayUpdate) {
  const doc = await SmsGatewayConfig.create(input);
  await publishCacheChange("sms-gateways");
  return view(doc.toObject() as SmsGatewayConfigDoc);
}

export async function updateGateway(id: string, input: GatewayUpdate) {
  const { password, ...rest } = input;
  const keep = !password || password === MASKED_SECRET;
  const current = await SmsGatewayConfig.findById(id, { apiUrl: 1 }).lean<{ apiUrl: string }>();
  if (!current) throw notFound("SMS gateway configuration not found");
  // The stored password goes only where it was typed for: a new address needs it typed again.
  if (keep && current.apiUrl !== rest.apiUrl) throw badRequest("password is required when apiUrl changes", "password");
  const doc = await SmsGatewayConfig.findByIdAndUpdate(
    id,
    { $set: keep ? rest : { ...rest, password } },
    { returnDocument: "after", lean: true },
  );
  if (!doc) throw notFound("SMS gateway configuration not found");
  await publishCacheChange("sms-gateways");
  return view(doc as SmsGatewayConfigDoc);
}

export async function deleteGateway(id: string) {
  const result = await SmsGatewayConfig.deleteOne({ _id: id });
  if (result.deletedCount === 0) throw notFound("SMS gateway configuration not found");
  await publishCacheChange("sms-gateways");
}
