import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRICING,
  DEFAULT_TIERS,
  priceOf,
  shownTier,
  smsEncoding,
  smsParts,
  tierForCoins,
  tierInfo,
  tierTableProblems,
  wordCount,
  CHARACTERS_PER_WORD_FLOOR,
  type PricingRow,
} from "./pricing";

describe("priceOf", () => {
  it("charges text ceil(characters / 4)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), (message) => {
        expect(priceOf({ feature: "text", message })).toBe(Math.ceil(message.length / 4));
      }),
    );
  });

  it("charges 20 per image and the Doctor by word count with a minimum of 1", () => {
    expect(priceOf({ feature: "image" })).toBe(20);
    expect(priceOf({ feature: "doctor", message: "I have a headache today" })).toBe(5);
    expect(priceOf({ feature: "doctor", message: "   " })).toBe(1);
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,6}$/u), { minLength: 1, maxLength: 40 }), (words) => {
        expect(priceOf({ feature: "doctor", message: words.join("  ") })).toBe(words.length);
      }),
    );
  });

  it("prices video by model price per second (gen3a_turbo 5 s = 1000 coins)", () => {
    expect(priceOf({ feature: "video", model: "gen3a_turbo", seconds: 5 })).toBe(1000);
    expect(priceOf({ feature: "video", model: "gen3a", seconds: 12 })).toBe(3600);
    expect(priceOf({ feature: "video", model: "gen2", seconds: 5 })).toBe(750);
  });

  it("scales every feature by the configured tokens_per_unit", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.string({ maxLength: 200 }), (perUnit, message) => {
        const pricing: PricingRow[] = DEFAULT_PRICING.map((r) =>
          r.feature_type === "text" ? { ...r, tokens_per_unit: perUnit } : r,
        );
        expect(priceOf({ feature: "text", message }, pricing)).toBe(Math.ceil(message.length / 4) * perUnit);
      }),
    );
  });

  it("never prices a request below zero and always returns an integer", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        for (const price of [
          priceOf({ feature: "text", message: text }),
          priceOf({ feature: "doctor", message: text }),
          priceOf({ feature: "sms", text }),
        ]) {
          expect(Number.isInteger(price)).toBe(true);
          expect(price).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});

describe("SMS segments", () => {
  it("uses GSM-7 160 / 153 and UCS-2 70 / 67", () => {
    expect(smsEncoding("a".repeat(160))).toEqual({ encoding: "GSM-7", length: 160, segments: 1 });
    expect(smsEncoding("a".repeat(161)).segments).toBe(2);
    expect(smsEncoding("a".repeat(306)).segments).toBe(2);
    expect(smsEncoding("a".repeat(307)).segments).toBe(3);
    expect(smsEncoding("م".repeat(70))).toEqual({ encoding: "UCS-2", length: 70, segments: 1 });
    expect(smsEncoding("م".repeat(71)).segments).toBe(2);
    expect(smsEncoding("م".repeat(135)).segments).toBe(3);
  });

  it("counts GSM-7 extension characters as two septets", () => {
    expect(smsEncoding("€".repeat(80)).length).toBe(160);
    expect(smsEncoding("€".repeat(81)).segments).toBe(2);
  });

  it("splits long texts into the parts it charges for, never inside a character", () => {
    expect(smsParts("short")).toEqual(["short"]);
    const english = "a".repeat(307);
    expect(smsParts(english).map((p) => p.length)).toEqual([153, 153, 1]);
    expect(smsParts(english).join("")).toBe(english);
    // 152 septets of "a" then "€" (2 septets) would straddle 153: the euro opens part two.
    const euro = `${"a".repeat(152)}€${"b".repeat(20)}`;
    expect(smsParts(euro)).toEqual(["a".repeat(152), `€${"b".repeat(20)}`]);
    expect(smsEncoding(euro).segments).toBe(2);
    // A surrogate pair (emoji) at the 67-unit boundary of a UCS-2 part moves whole to the next part.
    const arabic = `${"م".repeat(66)}😀${"م".repeat(10)}`;
    expect(smsParts(arabic)).toEqual(["م".repeat(66), `😀${"م".repeat(10)}`]);
    // 161 euros are 322 septets: 76 to a part (152 septets), as the 77th would need 154.
    const euros = "€".repeat(161);
    expect(smsParts(euros).map((p) => Array.from(p).length)).toEqual([76, 76, 9]);
    expect(smsEncoding(euros).segments).toBe(3);
  });

  it("agrees with itself on random texts: parts rejoin to the text and each fits", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "€", "م", "😀", " ", "{"), maxLength: 400 }), (text) => {
        const parts = smsParts(text);
        expect(parts.join("")).toBe(text);
        expect(smsEncoding(text).segments).toBe(parts.length);
        const { encoding } = smsEncoding(text);
        const limit = parts.length === 1 ? (encoding === "GSM-7" ? 160 : 70) : encoding === "GSM-7" ? 153 : 67;
        for (const part of parts) {
          const size = encoding === "GSM-7" ? smsEncoding(part).length : part.length;
          expect(size).toBeLessThanOrEqual(limit);
        }
      }),
    );
  });
});

describe("tiers", () => {
  it("the default table has ten tiers with no overlapping ranges", () => {
    expect(DEFAULT_TIERS).toHaveLength(10);
    expect(tierTableProblems(DEFAULT_TIERS)).toEqual([]);
  });

  it("reports overlapping and inverted ranges", () => {
    const overlapping = DEFAULT_TIERS.map((t) => (t.tier_number === 2 ? { ...t, min_coins: 50 } : t));
    expect(tierTableProblems(overlapping).join()).toMatch(/overlapping/u);
    const inverted = DEFAULT_TIERS.map((t) => (t.tier_number === 3 ? { ...t, max_coins: 1 } : t));
    expect(tierTableProblems(inverted).join()).toMatch(/max_coins below min_coins/u);
  });

  it("is monotonic in coins and never below the administrator's floor", () => {
    fc.assert(
      fc.property(fc.nat(3_000_000), fc.nat(3_000_000), fc.integer({ min: 1, max: 10 }), (a, b, floor) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(tierForCoins(low)).toBeLessThanOrEqual(tierForCoins(high));
        const info = tierInfo(low, floor);
        expect(info.currentTier).toBeGreaterThanOrEqual(floor);
        expect(info.progressToNext).toBeGreaterThanOrEqual(0);
        expect(info.progressToNext).toBeLessThanOrEqual(100);
      }),
    );
  });

  it("reports the next tier and the progress toward it", () => {
    expect(tierInfo(300, 1)).toEqual({
      currentTier: 2,
      currentTierName: "Silver",
      nextTier: 3,
      nextTierName: "Gold",
      progressToNext: 50,
    });
    expect(tierInfo(150_000, 1)).toMatchObject({ currentTier: 10, nextTier: null, progressToNext: 100 });
  });
});

describe("wordCount", () => {
  it("counts words as people do, in any script", () => {
    expect(wordCount("  مرحبا   بك يا دكتور ")).toBe(4);
    expect(wordCount("")).toBe(0);
    expect(wordCount("I have a headache, and a fever.")).toBe(7);
    // Chinese and Japanese have no spaces: words by dictionary, never fewer than the floor.
    expect(wordCount("我今天头很疼，还有点发烧，应该吃什么药")).toBeGreaterThanOrEqual(10);
    expect(wordCount("頭が痛くて熱があります")).toBeGreaterThanOrEqual(5);
    expect(wordCount("我".repeat(2000))).toBeGreaterThanOrEqual(Math.floor(2000 / CHARACTERS_PER_WORD_FLOOR));
    // One long word alone is one word.
    expect(wordCount("paracetamol")).toBe(1);
  });

  const SAMPLES = [
    "I have had a headache for three days and a slight fever since yesterday evening. What should I take, and when should I see a doctor about it?",
    "My daughter is six years old and has a rash on her arms after playing in the garden. It itches but she has no fever.",
    "Is it safe to take ibuprofen with paracetamol for back pain, and how many tablets a day at most?",
    "أشعر بألم في رأسي منذ يومين مع ارتفاع بسيط في الحرارة، ماذا أتناول ومتى يجب أن أزور الطبيب؟",
    "ابني عمره ست سنوات ولديه طفح جلدي على ذراعيه بعد اللعب في الحديقة",
  ];
  /** Ways of writing a text with fewer "words" between the same letters. */
  const RESPELLINGS: [string, (words: string[]) => string][] = [
    ["commas", (w) => w.join(",")],
    ["zero-width spaces", (w) => w.join("\u200B")],
    ["dots", (w) => w.join(".")],
    ["underscores", (w) => w.join("_")],
    ["nothing", (w) => w.join("")],
    ["apostrophes", (w) => w.join("'")],
    ["word joiners", (w) => w.join("\u2060")],
  ];

  it("counts characters the AI reads one by one: invisible tag characters and marks stacked on one letter", () => {
    const question = "what dose of ibuprofen is safe for a child of six years and how often a day";
    // The question in Unicode tag characters, hung on one visible letter: one grapheme.
    const tagged = "a" + [...question].map((ch) => String.fromCodePoint(0xe0000 + ch.charCodeAt(0))).join("");
    expect(wordCount(tagged)).toBeGreaterThanOrEqual(wordCount(question) / 2);
    expect(wordCount("e" + "\u0301".repeat(3000))).toBeGreaterThanOrEqual(Math.floor(2999 / CHARACTERS_PER_WORD_FLOOR));
    // A letter's own vowel and shadda are part of it: fully vocalised Arabic costs what it has words.
    expect(wordCount("بِسْمِ اللَّهِ الرَّحْمَٰنِ الرَّحِيمِ")).toBe(4);
  });

  it("prices no respelling of a message below half of it written normally", () => {
    for (const sample of SAMPLES) {
      const normal = wordCount(sample);
      const words = sample.split(/\s+/u);
      expect(normal, sample).toBe(words.filter((w) => /\p{L}|\p{N}/u.test(w)).length);
      for (const [how, respell] of RESPELLINGS) {
        expect(wordCount(respell(words)), `${how}: ${sample}`).toBeGreaterThanOrEqual(normal / 2);
      }
    }
  });

  it("leaves ordinary prose priced by its words: the floor is below them", () => {
    for (const sample of SAMPLES) {
      const visible = [...sample].filter((c) => !/\s/u.test(c)).length;
      expect(Math.floor(visible / CHARACTERS_PER_WORD_FLOOR), sample).toBeLessThanOrEqual(wordCount(sample));
    }
  });
});

describe("shownTier", () => {
  it("is the balance's tier, never below the floor an administrator set", () => {
    // The case: tier 3 set with 5,000 coins shows tier 6 (the balance's) everywhere.
    expect(shownTier(5000, 3)).toBe(6);
    expect(shownTier(4999, 3)).toBe(5);
    expect(shownTier(0, 3)).toBe(3);
    expect(shownTier(100_000_000, 1)).toBe(10);
    expect(shownTier(0, 0)).toBe(1);
    expect(shownTier(0, 12)).toBe(10);
  });

  it("is the tier tierInfo reports for any balance and floor", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 1, max: 10 }), (coins, floor) => {
        expect(tierInfo(coins, floor).currentTier).toBe(shownTier(coins, floor));
        expect(shownTier(coins, floor)).toBeGreaterThanOrEqual(Math.max(floor, tierForCoins(coins)));
      }),
    );
  });
});
