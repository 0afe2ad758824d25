/**
 * The public price list of the home page (storefront.php): prices from the live pricing table, the
 * packages on offer and what a new account starts with. The same answer for every visitor. The
 * tables come from the process's cache that every save empties (cache-bus), so a price change shows
 * at once; the package list is read at most once per STOREFRONT_TTL_MS per process, so a flood of
 * visitors costs no more database reads.
 */
import { priceOf, VIDEO_MODELS, type PriceRequest, type StorefrontInfo, type ToolPrice } from "@storefront/shared";
import { loadWalletTables, User, WalletPackageModel, type Config, type WalletPackageDoc } from "@storefront/shared/server";
import { toShopPackage } from "./purchases";

/** A package an administrator adds or changes shows on the home page within this long. */
const STOREFRONT_TTL_MS = 10_000;

/** One unit of each tool, priced as a charge would be (text by 4 characters, Doctor by word...). */
const UNIT_REQUESTS: readonly { request: PriceRequest; unit: ToolPrice["unit"] }[] = [
  { request: { feature: "text", message: "abcd" }, unit: "4_characters" },
  { request: { feature: "doctor", message: "word" }, unit: "word" },
  { request: { feature: "image" }, unit: "image" },
  { request: { feature: "sms", text: "a" }, unit: "sms" },
];

/** The order the home page lists the tools in (the dashboard's). */
const TOOL_ORDER = ["text", "doctor", "image", "video", "sms"];

async function readPackages(): Promise<StorefrontInfo["packages"]> {
  const packages = await WalletPackageModel.find({ status: "active" })
    .sort({ price: 1, createdAt: 1 })
    .limit(50)
    .lean<WalletPackageDoc[]>();
  return packages.map(toShopPackage);
}

let cachedPackages: { at: number; value: Promise<StorefrontInfo["packages"]> } | null = null;

function packagesOnOffer(now: number): Promise<StorefrontInfo["packages"]> {
  if (!cachedPackages || now - cachedPackages.at > STOREFRONT_TTL_MS) {
    const value = readPackages();
    cachedPackages = { at: now, value };
    // A failed read is not kept: the next visitor tries again.
    value.catch(() => {
      if (cachedPackages?.value === value) cachedPackages = null;
    });
  }
  return cachedPackages.value;
}

export async function storefrontInfo(config: Config, now = Date.now()): Promise<StorefrontInfo> {
  const [tables, packages] = await Promise.all([loadWalletTables(), packagesOnOffer(now)]);
  const videoModels = VIDEO_MODELS.map((m) => ({
    id: m.id,
    name: m.name,
    coinsPerSecond: priceOf({ feature: "video", model: m.id, seconds: 1 }, tables.pricing),
  }));
  const cheapestVideo = Math.min(...videoModels.map((m) => m.coinsPerSecond));
  return {
    success: true,
    currency: config.CURRENCY,
    phoneCountry: config.DEFAULT_PHONE_COUNTRY,
    newAccountCoins: Number(User.schema.path("coins").options.default ?? 0),
    tools: [
      ...UNIT_REQUESTS.map(({ request, unit }) => ({ feature: request.feature, coins: priceOf(request, tables.pricing), unit })),
      { feature: "video" as const, coins: cheapestVideo, unit: "second" as const },
    ].sort((a, b) => TOOL_ORDER.indexOf(a.feature) - TOOL_ORDER.indexOf(b.feature)),
    videoModels,
    packages,
  };
}
