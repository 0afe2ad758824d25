/** Definitions from a small built-in dictionary, in English and Arabic. */
import { say } from "./format";
import { cues, findPhrases, hasPhrase, phraseTable } from "./text";
import type { Skill } from "./types";
import dictionaryData from "./data/dictionary.json";

interface Entry {
  en: { term: string; definition: string };
  ar: { term: string; definition: string };
  /** Other ways to name the term, in either language. */
  aliases?: readonly string[];
  /** Health topics get the Doctor persona's disclaimer. */
  health?: boolean;
}

const ENTRIES = dictionaryData as readonly Entry[];

const TERMS = phraseTable(ENTRIES.map((e) => ({ phrases: [e.en.term, e.ar.term, ...(e.aliases ?? [])], value: e })));

const DEFINITION_CUES = cues(
  "what is",
  "what s",
  "whats",
  "what are",
  "what does",
  "define",
  "definition",
  "meaning",
  "means",
  "explain",
  "tell me about",
  "ما هو",
  "ما هي",
  "ما معني",
  "ماذا يعني",
  "ماذا تعني",
  "عرف",
  "تعريف",
  "ما المقصود",
  "يعني ايش",
  "شو يعني",
  "اشرح",
);

/** "what is photosynthesis?", "define inflation", "ما معنى التضخم", or just the term. */
export const dictionarySkill: Skill = (ctx) => {
  const [match] = findPhrases(ctx.tokens, TERMS);
  if (!match) return null;
  const alone = match.end - match.start === ctx.tokens.length;
  if (!alone && !hasPhrase(ctx.tokens, DEFINITION_CUES)) return null;
  const entry = match.value;
  const text = say(ctx.language, `${entry.en.term}: ${entry.en.definition}`, `${entry.ar.term}: ${entry.ar.definition}`);
  return { text, health: entry.health };
};
