import { z } from "zod";
import { FEATURES } from "../constants";
import { shopPackageSchema } from "./wallet";

/** ISO 4217 code of the currency prices are in ("USD", "SAR"); the browser formats with Intl.NumberFormat. */
export const currencyCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/u, "must be a three-letter ISO 4217 currency code such as USD or SAR");

/** What one use of a tool costs: `coins` per `unit` under the live pricing table. */
export const toolPriceSchema = z.object({
  feature: z.enum(FEATURES),
  coins: z.number().int(),
  /** "4_characters" (text), "word" (Doctor), "image", "second" (video, per model below), "sms" (one SMS part). */
  unit: z.enum(["4_characters", "word", "image", "second", "sms"]),
});
export type ToolPrice = z.infer<typeof toolPriceSchema>;

/**
 * GET storefront.php: what a visitor may know before signing up. Public and the same for everyone:
 * prices from the live pricing table, the packages on offer, the coins a new account starts with,
 * the currency and the phone country numbers are read in. Nothing about any account.
 */
export const storefrontResponseSchema = z.object({
  success: z.literal(true),
  currency: z.string(),
  phoneCountry: z.string(),
  newAccountCoins: z.number().int(),
  tools: z.array(toolPriceSchema),
  videoModels: z.array(z.object({ id: z.string(), name: z.string(), coinsPerSecond: z.number().int() })),
  packages: z.array(shopPackageSchema),
});
export type StorefrontInfo = z.infer<typeof storefrontResponseSchema>;
