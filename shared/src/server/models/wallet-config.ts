import mongoose, { Schema } from "mongoose";
import { DEFAULT_PRICING, DEFAULT_TIERS, type PricingRow, type TierRow } from "../../pricing";

const pricingRowSchema = new Schema({ feature_type: String, tokens_per_unit: Number }, { _id: false });
const tierRowSchema = new Schema(
  {
    tier_number: Number,
    tier_name: String,
    min_coins: Number,
    max_coins: Number,
    text_tokens: Number,
    image_tokens: Number,
    video_tokens: Number,
    audio_tokens: Number,
    sms_tokens: Number,
  },
  { _id: false },
);

/** One document (`_id: "wallet"`) holding the pricing table and the tier table. */
const walletConfigSchema = new Schema(
  {
    _id: { type: String, default: "wallet" },
    pricing: { type: [pricingRowSchema], default: () => DEFAULT_PRICING.map((r) => ({ ...r })) },
    tiers: { type: [tierRowSchema], default: () => DEFAULT_TIERS.map((r) => ({ ...r })) },
  },
  { timestamps: true },
);

export const WalletConfig = mongoose.model("WalletConfig", walletConfigSchema);

export interface WalletTables {
  pricing: PricingRow[];
  tiers: TierRow[];
}

/** The pricing and tier tables, seeded with SPEC §9's defaults on first read. Read per charge, so edits apply at once. */
export async function loadWalletTables(): Promise<WalletTables> {
  const found = await WalletConfig.findById("wallet", { pricing: 1, tiers: 1 }).lean();
  const doc =
    found ??
    (await WalletConfig.findOneAndUpdate(
      { _id: "wallet" },
      { $setOnInsert: { pricing: DEFAULT_PRICING.map((r) => ({ ...r })), tiers: DEFAULT_TIERS.map((r) => ({ ...r })) } },
      { upsert: true, returnDocument: "after", lean: true },
    ));
  return { pricing: (doc?.pricing ?? []) as PricingRow[], tiers: (doc?.tiers ?? []) as TierRow[] };
}
