/**
 * The one function that prices every feature (SPEC §9), and the tier rules. Pure: the tables
 * come from the database (seeded with DEFAULT_PRICING / DEFAULT_TIERS) and are passed in.
 */
import { VIDEO_MODELS, type Feature, type VideoModelId } from "./constants";

export interface PricingRow {
  feature_type: Feature;
  /** Coins charged per unit of the feature (see `unitsOf`). */
  tokens_per_unit: number;
}

export interface TierRow {
  tier_number: number;
  tier_name: string;
  min_coins: number;
  max_coins: number;
  text_tokens: number;
  image_tokens: number;
  video_tokens: number;
  audio_tokens: number;
  sms_tokens: number;
  /** Default daily spending cap in coins for users in this tier who set none (null or absent: none). */
  daily_cap?: number | null;
}

export const DEFAULT_PRICING: readonly PricingRow[] = [
  { feature_type: "text", tokens_per_unit: 1 },
  { feature_type: "doctor", tokens_per_unit: 1 },
  { feature_type: "image", tokens_per_unit: 20 },
  { feature_type: "video", tokens_per_unit: 1 },
  { feature_type: "sms", tokens_per_unit: 1 },
  { feature_type: "audio", tokens_per_unit: 1 },
];

const TIER_NAMES = ["Bronze", "Silver", "Gold", "Platinum", "Emerald", "Sapphire", "Ruby", "Diamond", "Master", "Champion"];
const TIER_MIN_COINS = [0, 100, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000, 100_000];
/** The top tier has no real ceiling; this keeps max_coins an integer as SPEC §5 asks. */
export const TOP_TIER_MAX_COINS = 2_000_000_000;

export const DEFAULT_TIERS: readonly TierRow[] = TIER_NAMES.map((name, i) => ({
  tier_number: i + 1,
  tier_name: name,
  min_coins: TIER_MIN_COINS[i]!,
  max_coins: i < 9 ? TIER_MIN_COINS[i + 1]! - 1 : TOP_TIER_MAX_COINS,
  text_tokens: 1000 * (i + 1),
  image_tokens: 5 * (i + 1),
  video_tokens: 1 + i,
  audio_tokens: 10 * (i + 1),
  sms_tokens: 50 * (i + 1),
}));

/** Icon and colour keys of the ten tiers, bronze up to a trophy at 10. */
export const TIER_STYLES: readonly { icon: string; color: string }[] = [
  { icon: "🥉", color: "#cd7f32" },
  { icon: "🥈", color: "#9ca3af" },
  { icon: "🥇", color: "#eab308" },
  { icon: "💠", color: "#64748b" },
  { icon: "💚", color: "#10b981" },
  { icon: "💙", color: "#2563eb" },
  { icon: "❤️", color: "#dc2626" },
  { icon: "💎", color: "#06b6d4" },
  { icon: "👑", color: "#9333ea" },
  { icon: "🏆", color: "#f59e0b" },
];

export type PriceRequest =
  | { feature: "text"; message: string }
  | { feature: "doctor"; message: string }
  | { feature: "image" }
  | { feature: "video"; model: VideoModelId; seconds: number }
  | { feature: "sms"; text: string }
  | { feature: "audio"; seconds: number };

/**
 * Characters (graphemes other than spaces) the Doctor's price counts as at least one word: what the
 * AI reads does not shrink when the spaces go, so neither does the price (docs/decisions.md says why
 * 6). A grapheme counts as its code points less up to two combining marks (a letter with its vowel
 * and shadda is one), so invisible tag or format characters and stacked marks hung on one letter,
 * which the AI reads one by one, count each.
 */
export const CHARACTERS_PER_WORD_FLOOR = 6;

// One locale for the server and every browser: the same text has the same price everywhere.
const wordSegmenter = new Intl.Segmenter("und", { granularity: "word" });
const graphemeSegmenter = new Intl.Segmenter("und", { granularity: "grapheme" });

/**
 * Words as people count them in every script (Unicode word boundaries: Chinese, Japanese and Thai
 * by dictionary; commas and zero-width spaces are breaks), never fewer than one per
 * CHARACTERS_PER_WORD_FLOOR visible characters, so that joining words by dots, underscores or
 * nothing at all does not make a text cheaper than half of it written normally.
 */
export function wordCount(text: string): number {
  let words = 0;
  for (const segment of wordSegmenter.segment(text)) if (segment.isWordLike) words += 1;
  let visible = 0;
  for (const { segment } of graphemeSegmenter.segment(text)) {
    if (/^\s+$/u.test(segment)) continue;
    const marks = segment.match(/\p{M}/gu)?.length ?? 0;
    visible += [...segment].length - Math.min(marks, 2);
  }
  // Whole words of characters only (rounded down): one long word alone ("paracetamol") is still one word.
  return Math.max(words, Math.floor(visible / CHARACTERS_PER_WORD_FLOOR));
}

/** GSM 03.38 basic set; characters outside it force UCS-2 encoding. */
const GSM7_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM7_EXTENDED = "^{}\\[~]|€\f";

export interface SmsEncoding {
  encoding: "GSM-7" | "UCS-2";
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text occupies. */
  length: number;
  /** SMS the text is sent as (smsParts), and charged for. */
  segments: number;
}

const SMS_LIMITS = {
  "GSM-7": { single: 160, part: 153 },
  "UCS-2": { single: 70, part: 67 },
} as const;

interface Measured {
  encoding: SmsEncoding["encoding"];
  /** Each character of the text (code point) with the septets or UTF-16 units it takes. */
  chars: { ch: string; size: number }[];
  total: number;
}

/** GSM-7 when every character is in the GSM 03.38 sets, with the septets each one takes; else UCS-2. */
function measure(text: string): Measured {
  const chars = Array.from(text, (ch) => ({
    ch,
    size: GSM7_BASIC.includes(ch) ? 1 : GSM7_EXTENDED.includes(ch) ? 2 : 0,
  }));
  const gsm = chars.every((c) => c.size > 0);
  if (!gsm) for (const c of chars) c.size = c.ch.length;
  return { encoding: gsm ? "GSM-7" : "UCS-2", chars, total: chars.reduce((sum, c) => sum + c.size, 0) };
}

function split(text: string, { encoding, chars, total }: Measured): string[] {
  const limits = SMS_LIMITS[encoding];
  if (total <= limits.single) return [text];
  const parts: string[] = [];
  let current = "";
  let used = 0;
  for (const { ch, size } of chars) {
    if (used + size > limits.part) {
      parts.push(current);
      current = "";
      used = 0;
    }
    current += ch;
    used += size;
  }
  parts.push(current);
  return parts;
}

/**
 * The SMS a text is sent as: one up to 160 septets (GSM-7) or 70 UTF-16 units (UCS-2), otherwise
 * concatenated parts of at most 153 / 67 (the rest of each part is the concatenation header). A
 * part never splits a character: an extension character's escape pair or a surrogate pair stays whole.
 */
export function smsParts(text: string): string[] {
  return split(text, measure(text));
}

/** How a text is encoded and how many SMS it takes (GSM-7 160 single / 153 per part, UCS-2 70 / 67). */
export function smsEncoding(text: string): SmsEncoding {
  const measured = measure(text);
  return { encoding: measured.encoding, length: measured.total, segments: split(text, measured).length };
}

/** Video cost in units of $0.001 of provider price per second (docs/decisions.md). */
export function videoMillsPerSecond(model: VideoModelId): number {
  const found = VIDEO_MODELS.find((m) => m.id === model);
  if (!found) throw new Error(`unknown video model ${model}`);
  return Math.round(found.costPerSecond * 1000);
}

/** The billable units of a request, before the per-unit price. */
export function unitsOf(request: PriceRequest): number {
  switch (request.feature) {
    case "text":
      return Math.ceil(request.message.length / 4);
    case "doctor":
      return Math.max(1, wordCount(request.message));
    case "image":
      return 1;
    case "video":
      return request.seconds * videoMillsPerSecond(request.model);
    case "sms":
      return Math.max(1, smsEncoding(request.text).segments);
    case "audio":
      return Math.max(1, Math.ceil(request.seconds));
  }
}

/** Coins a request costs under the given pricing table. */
export function priceOf(request: PriceRequest, pricing: readonly PricingRow[] = DEFAULT_PRICING): number {
  const row =
    pricing.find((r) => r.feature_type === request.feature) ?? DEFAULT_PRICING.find((r) => r.feature_type === request.feature);
  const perUnit = row?.tokens_per_unit ?? 1;
  return unitsOf(request) * perUnit;
}

export interface TierInfo {
  currentTier: number;
  currentTierName: string;
  nextTier: number | null;
  nextTierName: string | null;
  /** Percent of the way from the current tier's minimum to the next tier's, 0-100. */
  progressToNext: number;
}

/** The tier whose coin range holds the balance (the highest such when ranges touch). */
export function tierForCoins(coins: number, tiers: readonly TierRow[] = DEFAULT_TIERS): number {
  const sorted = [...tiers].sort((a, b) => a.tier_number - b.tier_number);
  let found = sorted[0]?.tier_number ?? 1;
  for (const tier of sorted) if (coins >= tier.min_coins) found = tier.tier_number;
  return found;
}

/**
 * The one tier a user has, shown alike to the subscriber (wallet), in the admin tables and in the
 * admin form's preview: the tier their balance reaches, never below the floor an administrator
 * set (admin/update-user-tier.php stores that floor as the user's `tier`; docs/decisions.md).
 */
export function shownTier(coins: number, tierFloor: number, tiers: readonly TierRow[] = DEFAULT_TIERS): number {
  return Math.min(10, Math.max(1, Math.trunc(tierFloor) || 1, tierForCoins(coins, tiers)));
}

/**
 * The daily spending cap that applies to a user: their own when they set one, otherwise their
 * shown tier's default, otherwise none (null).
 */
export function dailyCapFor(
  own: number | null | undefined,
  coins: number,
  tierFloor: number,
  tiers: readonly TierRow[] = DEFAULT_TIERS,
): { cap: number | null; source: "user" | "tier" | "none" } {
  if (own != null) return { cap: own, source: "user" };
  const tier = shownTier(coins, tierFloor, tiers);
  const byTier = tiers.find((t) => t.tier_number === tier)?.daily_cap;
  return byTier != null ? { cap: byTier, source: "tier" } : { cap: null, source: "none" };
}

/** True when some tier has a default cap, so a user without their own cap may still have one. */
export function tiersHaveCaps(tiers: readonly TierRow[]): boolean {
  return tiers.some((t) => t.daily_cap != null);
}

/** The shown tier (shownTier) with its name and the progress to the next one. */
export function tierInfo(coins: number, tierFloor: number, tiers: readonly TierRow[] = DEFAULT_TIERS): TierInfo {
  const sorted = [...tiers].sort((a, b) => a.tier_number - b.tier_number);
  const current = shownTier(coins, tierFloor, sorted);
  const row = sorted.find((t) => t.tier_number === current);
  const next = sorted.find((t) => t.tier_number === current + 1);
  let progress = 100;
  if (next) {
    const from = row?.min_coins ?? 0;
    const span = next.min_coins - from;
    progress = span <= 0 ? 100 : Math.min(100, Math.max(0, Math.floor(((coins - from) / span) * 100)));
  }
  return {
    currentTier: current,
    currentTierName: row?.tier_name ?? `Tier ${current}`,
    nextTier: next?.tier_number ?? null,
    nextTierName: next?.tier_name ?? null,
    progressToNext: progress,
  };
}

/** Rejects tier tables whose coin ranges overlap or are inverted; returns the problems found. */
export function tierTableProblems(tiers: readonly TierRow[]): string[] {
  const problems: string[] = [];
  const sorted = [...tiers].sort((a, b) => a.min_coins - b.min_coins);
  const numbers = new Set<number>();
  for (const t of tiers) {
    if (numbers.has(t.tier_number)) problems.push(`tiers: tier ${t.tier_number} appears twice`);
    numbers.add(t.tier_number);
    if (t.max_coins < t.min_coins) problems.push(`tiers: tier ${t.tier_number} has max_coins below min_coins`);
  }
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (cur.min_coins <= prev.max_coins) {
      problems.push(`tiers: tiers ${prev.tier_number} and ${cur.tier_number} have overlapping coin ranges`);
    }
  }
  return problems;
}
