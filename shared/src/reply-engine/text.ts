/**
 * Text normalisation and phrase matching shared by every skill, so English and Arabic
 * are recognised the same way everywhere (digits, letter variants, Arabic prefixes).
 */

const DIGIT_MAP: Record<string, string> = {};
["٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹"].forEach((digits) =>
  Array.from(digits).forEach((d, i) => {
    DIGIT_MAP[d] = String(i);
  }),
);

const PUNCTUATION_MAP: Record<string, string> = {
  "٫": ".",
  "٬": ",",
  "،": ",",
  "؟": "?",
  "٪": "%",
  "−": "-",
  "–": "-",
  "؛": ";",
};

/**
 * Lower-cases, maps Arabic-Indic digits and punctuation to ASCII, drops diacritics
 * (Latin accents and Arabic harakat/hamza marks) and unifies alef, ta marbuta and alef
 * maqsura, so "إلى"/"الى" and "القاهرة"/"القاهره" compare equal.
 */
export function normalizeText(input: string): string {
  return input
    .normalize("NFD")
    .replace(/[\u0300-\u036f\u064b-\u065f\u0670\u0640]/gu, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/[٠-٩۰-۹]/gu, (d) => DIGIT_MAP[d] ?? d)
    .replace(/[٫٬،؟٪−–؛]/gu, (c) => PUNCTUATION_MAP[c] ?? c)
    .replace(/[أإآٱ]/gu, "ا")
    .replace(/ة/gu, "ه")
    .replace(/ى/gu, "ي");
}

export interface Token {
  word: string;
  /** Forms the word may stand for: Arabic with its attached prefixes removed, English singular. */
  variants: string[];
  /** Offsets in the normalised text. */
  start: number;
  end: number;
}

const ARABIC = /[\u0600-\u06ff]/u;

function arabicVariants(word: string): string[] {
  const out = new Set([word]);
  const strip = (forms: string[], prefixes: string[]): void => {
    for (const form of forms) {
      for (const prefix of prefixes) {
        if (form.startsWith(prefix) && form.length - prefix.length >= 2) out.add(form.slice(prefix.length));
      }
    }
  };
  // Attached conjunctions (و ف), prepositions (ب ل ك, "لل" = ل + ال) and the article ال.
  strip([word], ["و", "ف"]);
  strip([...out], ["ب", "ل", "ك", "لل"]);
  strip([...out], ["ال"]);
  return [...out];
}

function englishVariants(word: string): string[] {
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return [word, word.slice(0, -1)];
  return [word];
}

/** Splits normalised text into words (letters and digits runs). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    tokens.push({
      word,
      variants: ARABIC.test(word) ? arabicVariants(word) : englishVariants(word),
      start: match.index,
      end: match.index + word.length,
    });
  }
  return tokens;
}

/** A phrase ready for matching: its words normalised, Arabic words without their article. */
export type Phrase = string[];

function compilePhrase(phrase: string): Phrase {
  return tokenize(normalizeText(phrase)).map((t) =>
    ARABIC.test(t.word) && t.word.startsWith("ال") && t.word.length > 3 ? t.word.slice(2) : t.word,
  );
}

interface PhraseEntry<T> {
  words: Phrase;
  value: T;
  /** Its place in the table: at one token the lowest rank that matches wins (longest first). */
  rank: number;
}

export interface PhraseTable<T> {
  /** The entries by their first word, each list in rank order: a token looks up only its own words. */
  byFirstWord: Map<string, PhraseEntry<T>[]>;
}

/** Builds a lookup of phrases (longest first, so "new york" wins over "york"). */
export function phraseTable<T>(items: { phrases: readonly string[]; value: T }[]): PhraseTable<T> {
  const compiled = items.flatMap((item) =>
    item.phrases.map((p) => ({ words: compilePhrase(p), value: item.value })).filter((e) => e.words.length > 0),
  );
  compiled.sort((a, b) => b.words.length - a.words.length);
  const byFirstWord = new Map<string, PhraseEntry<T>[]>();
  compiled.forEach((entry, rank) => {
    const first = entry.words[0]!;
    const list = byFirstWord.get(first) ?? [];
    list.push({ ...entry, rank });
    byFirstWord.set(first, list);
  });
  return { byFirstWord };
}

export interface PhraseMatch<T> {
  value: T;
  /** Token index range [start, end). */
  start: number;
  end: number;
}

function matchesAt(tokens: Token[], index: number, words: Phrase): boolean {
  return words.every((w, k) => tokens[index + k]?.variants.includes(w) ?? false);
}

/** Every non-overlapping phrase occurrence, left to right, longest phrase first at each place. */
export function findPhrases<T>(tokens: Token[], table: PhraseTable<T>): PhraseMatch<T>[] {
  const found: PhraseMatch<T>[] = [];
  let i = 0;
  while (i < tokens.length) {
    const match = phraseAt(tokens, i, table);
    if (match) found.push(match);
    i = match ? match.end : i + 1;
  }
  return found;
}

/** True when any phrase of the table occurs in the tokens. */
export function hasPhrase<T>(tokens: Token[], table: PhraseTable<T>): boolean {
  return findPhrases(tokens, table).length > 0;
}

/** A table of cue phrases that only answer "present or not". */
export function cues(...phrases: string[]): PhraseTable<true> {
  return phraseTable([{ phrases, value: true as const }]);
}

/**
 * The phrase of the table that starts exactly at token `index`, if any: of the entries whose first
 * word is one of the token's forms, the first in the table's order that matches.
 */
export function phraseAt<T>(tokens: Token[], index: number, table: PhraseTable<T>): PhraseMatch<T> | undefined {
  let best: PhraseEntry<T> | undefined;
  for (const form of tokens[index]?.variants ?? []) {
    for (const entry of table.byFirstWord.get(form) ?? []) {
      if (best && entry.rank >= best.rank) break;
      if (matchesAt(tokens, index, entry.words)) {
        best = entry;
        break;
      }
    }
  }
  return best ? { value: best.value, start: index, end: index + best.words.length } : undefined;
}
