import mongoose, { Schema } from "mongoose";
import { DEFAULT_PRICING, DEFAULT_TIERS, type PricingRow, type TierRow } from "../../pricing";
import { publishCacheChange, RecordCache } from "../cache-bus";

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
    daily_cap: { type: Number, default: null },
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

/**
 * The pricing and tier tables. Read on every charge from this process's cache (cache-bus.ts):
 * `saveWalletTables` publishes the change, so a save applies to the next charge on every process.
 * Seeded with SPEC §9's defaults once (`seedWalletTables` at start), never written on a read.
 */
export function loadWalletTables(): Promise<WalletTables> {
  return tablesCache.get("wallet");
}

const tablesCache = new RecordCache<WalletTables>(
  "wallet-config",
  async () => {
    const found = await WalletConfig.findById("wallet", { pricing: 1, tiers: 1 }).lean();
    const doc = found ?? (await seedWalletTables());
    // Shared by every caller while cached: frozen, so nobody changes the tables by accident.
    return Object.freeze({
      pricing: Object.freeze((doc?.pricing ?? []) as PricingRow[]) as PricingRow[],
      tiers: Object.freeze((doc?.tiers ?? []) as TierRow[]) as TierRow[],
    });
  },
  1,
);

/** Writes SPEC §9's defaults if the tables do not exist yet (API start, or a first read). */
export async function seedWalletTables() {
  return WalletConfig.findOneAndUpdate(
    { _id: "wallet" },
    { $setOnInsert: { pricing: DEFAULT_PRICING.map((r) => ({ ...r })), tiers: DEFAULT_TIERS.map((r) => ({ ...r })) } },
    { upsert: true, returnDocument: "after", lean: true },
  );
}

/** Replaces both tables and tells every process. */
export async function saveWalletTables(tables: WalletTables): Promise<void> {
  await WalletConfig.updateOne({ _id: "wallet" }, { $set: { pricing: tables.pricing, tiers: tables.tiers } }, { upsert: true });
  await publishCacheChange("wallet-config");
}
