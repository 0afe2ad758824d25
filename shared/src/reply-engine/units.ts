/** Unit conversion: length, mass, volume and temperature, in English and Arabic unit names. */
import type { Language } from "../constants";
import { formatNumber, say } from "./format";
import { cues, findPhrases, hasPhrase, phraseAt, phraseTable, tokenize, type Token } from "./text";
import type { Skill } from "./types";
import unitsData from "./data/units.json";

type Dimension = "length" | "mass" | "volume" | "temperature";

export type UnitId =
  | "km"
  | "m"
  | "cm"
  | "mm"
  | "mile"
  | "ft"
  | "inch"
  | "yard"
  | "kg"
  | "g"
  | "lb"
  | "oz"
  | "l"
  | "ml"
  | "gal"
  | "c"
  | "f"
  | "k";

interface Unit {
  id: UnitId;
  dimension: Dimension;
  /** base = value * factor + offset (bases: metre, kilogram, litre, degree Celsius). */
  factor: number;
  offset?: number;
  en: { one: string; other: string };
  ar: string;
  /** Names recognised anywhere in a message. */
  names: readonly string[];
  /** Abbreviations, only recognised right after a number or after "to"/"in" ("5 m", "to ft"). */
  short: readonly string[];
  /** What to convert to when the message names no target unit. */
  defaultTarget: UnitId;
}

const UNITS = unitsData as readonly Unit[];

function unitById(id: UnitId): Unit {
  const unit = UNITS.find((u) => u.id === id);
  if (!unit) throw new Error(`unknown unit ${id}`);
  return unit;
}

/** Converts between two units of the same dimension. */
export function convert(value: number, from: UnitId, to: UnitId): number {
  const a = unitById(from);
  const b = unitById(to);
  if (a.dimension !== b.dimension) throw new Error(`cannot convert ${from} to ${to}`);
  const base = value * a.factor + (a.offset ?? 0);
  return (base - (b.offset ?? 0)) / b.factor;
}

interface UnitName {
  unit: Unit;
  short: boolean;
}

const ALL_NAMES = phraseTable(
  UNITS.flatMap((unit) => [
    { phrases: unit.names, value: { unit, short: false } as UnitName },
    { phrases: unit.short, value: { unit, short: true } as UnitName },
  ]),
);
const DEGREE = cues("degree", "degrees", "deg", "درجه", "درجات");
const TARGET_MARKERS = cues("to", "in", "into", "many", "الي", "ب", "في");
const CONVERT_CUES = cues(
  "convert",
  "conversion",
  "how many",
  "how much",
  "equals",
  "equal",
  "حول",
  "تحويل",
  "يساوي",
  "كم يساوي",
);

export interface Quantity {
  value: number;
  unit: UnitId;
  /** Character range in the normalised text, number and unit included. */
  start: number;
  end: number;
}

const NUMBER = /(?<![\d.,])(-?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)/gu;

/** Every "number unit" in the normalised text ("25 km", "-40 °f", "3.5 كيلومتر"). */
export function findQuantities(text: string): Quantity[] {
  const found: Quantity[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const numberEnd = match.index + match[0].length;
    const rest = text.slice(numberEnd, numberEnd + 40);
    const lead = /^\s*°?\s*/u.exec(rest)?.[0] ?? "";
    if (!/^\p{L}/u.test(rest.slice(lead.length))) continue;
    const tokens = tokenize(rest);
    const skip = phraseAt(tokens, 0, DEGREE)?.end ?? 0;
    const unit = phraseAt(tokens, skip, ALL_NAMES);
    if (!unit) continue;
    const value = Number(`${match[1]}${(match[2] ?? "").replace(/,/gu, "")}`);
    const lastToken = tokens[unit.end - 1];
    found.push({ value, unit: unit.value.unit.id, start: match.index, end: numberEnd + (lastToken?.end ?? 0) });
  }
  return found;
}

/** The first distance written with a length unit, in km ("10 miles" → 16.09). */
export function findDistanceKm(text: string): number | undefined {
  const q = findQuantities(text).find((x) => unitById(x.unit).dimension === "length");
  return q ? convert(q.value, q.unit, "km") : undefined;
}

function unitText(unit: Unit, value: number, language: Language): string {
  return say(language, Math.abs(value) === 1 ? unit.en.one : unit.en.other, unit.ar);
}

function targetUnit(tokens: Token[], source: Quantity, sourceUnit: Unit): Unit | undefined {
  for (const m of findPhrases(tokens, ALL_NAMES)) {
    const first = tokens[m.start];
    const inSource = first !== undefined && first.start >= source.start && first.start < source.end;
    if (inSource || m.value.unit.dimension !== sourceUnit.dimension || m.value.unit.id === sourceUnit.id) continue;
    if (m.value.short && !(m.start > 0 && phraseAt(tokens, m.start - 1, TARGET_MARKERS))) continue;
    return m.value.unit;
  }
  return undefined;
}

/** "convert 10 km to miles", "how many pounds is 70 kg", "30 درجة مئوية إلى فهرنهايت". */
export const unitsSkill: Skill = (ctx) => {
  for (const source of findQuantities(ctx.text)) {
    const from = unitById(source.unit);
    const explicit = targetUnit(ctx.tokens, source, from);
    if (!explicit && !hasPhrase(ctx.tokens, CONVERT_CUES)) continue;
    const to = explicit ?? unitById(from.defaultTarget);
    const result = convert(source.value, from.id, to.id);
    const left = `${formatNumber(source.value)} ${unitText(from, source.value, ctx.language)}`;
    const right = `${formatNumber(result)} ${unitText(to, result, ctx.language)}`;
    return { text: `${left} = ${right}` };
  }
  return null;
};
