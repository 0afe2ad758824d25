/** Unit conversion: length, mass, volume and temperature, in English and Arabic unit names. */
import type { Language } from "../constants";
import { formatNumber, say } from "./format";
import { cues, findPhrases, hasPhrase, phraseAt, phraseTable, tokenize, type Token } from "./text";
import type { Skill } from "./types";

type Dimension = "length" | "mass" | "volume" | "temperature";

export type UnitId =
  "km" | "m" | "cm" | "mm" | "mile" | "ft" | "inch" | "yard" | "kg" | "g" | "lb" | "oz" | "l" | "ml" | "gal" | "c" | "f" | "k";

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

const UNITS: readonly Unit[] = [
  {
    id: "km",
    dimension: "length",
    factor: 1000,
    en: { one: "km", other: "km" },
    ar: "كم",
    names: ["kilometer", "kilometers", "kilometre", "kilometres", "كيلومتر", "كيلومترات", "كيلو متر", "كيلومترا"],
    short: ["km", "kms", "كم"],
    defaultTarget: "mile",
  },
  {
    id: "m",
    dimension: "length",
    factor: 1,
    en: { one: "m", other: "m" },
    ar: "م",
    names: ["meter", "meters", "metre", "metres", "متر", "امتار", "مترا"],
    short: ["m", "م"],
    defaultTarget: "ft",
  },
  {
    id: "cm",
    dimension: "length",
    factor: 0.01,
    en: { one: "cm", other: "cm" },
    ar: "سم",
    names: ["centimeter", "centimeters", "centimetre", "centimetres", "سنتيمتر", "سنتيمترات", "سنتي"],
    short: ["cm", "سم"],
    defaultTarget: "inch",
  },
  {
    id: "mm",
    dimension: "length",
    factor: 0.001,
    en: { one: "mm", other: "mm" },
    ar: "ملم",
    names: ["millimeter", "millimeters", "millimetre", "millimetres", "مليمتر", "ملليمتر", "مليمترات"],
    short: ["mm", "ملم"],
    defaultTarget: "inch",
  },
  {
    id: "mile",
    dimension: "length",
    factor: 1609.344,
    en: { one: "mile", other: "miles" },
    ar: "ميل",
    names: ["mile", "miles", "ميل", "اميال", "ميلا"],
    short: ["mi"],
    defaultTarget: "km",
  },
  {
    id: "ft",
    dimension: "length",
    factor: 0.3048,
    en: { one: "foot", other: "feet" },
    ar: "قدم",
    names: ["foot", "feet", "قدم", "اقدام"],
    short: ["ft"],
    defaultTarget: "m",
  },
  {
    id: "inch",
    dimension: "length",
    factor: 0.0254,
    en: { one: "inch", other: "inches" },
    ar: "بوصة",
    names: ["inch", "inches", "بوصه", "بوصات", "انش", "انشات"],
    short: ["in"],
    defaultTarget: "cm",
  },
  {
    id: "yard",
    dimension: "length",
    factor: 0.9144,
    en: { one: "yard", other: "yards" },
    ar: "ياردة",
    names: ["yard", "yards", "يارده", "ياردات"],
    short: ["yd", "yds"],
    defaultTarget: "m",
  },
  {
    id: "kg",
    dimension: "mass",
    factor: 1,
    en: { one: "kg", other: "kg" },
    ar: "كجم",
    names: ["kilogram", "kilograms", "kilogramme", "kilo", "kilos", "كيلوغرام", "كيلوجرام", "كيلوغرامات", "كيلو"],
    short: ["kg", "kgs", "كجم", "كغ"],
    defaultTarget: "lb",
  },
  {
    id: "g",
    dimension: "mass",
    factor: 0.001,
    en: { one: "g", other: "g" },
    ar: "غ",
    names: ["gram", "grams", "gramme", "غرام", "جرام", "غرامات", "جرامات"],
    short: ["g", "غ", "جم"],
    defaultTarget: "oz",
  },
  {
    id: "lb",
    dimension: "mass",
    factor: 0.45359237,
    en: { one: "lb", other: "lb" },
    ar: "رطل",
    names: ["pound", "pounds", "رطل", "ارطال", "باوند"],
    short: ["lb", "lbs"],
    defaultTarget: "kg",
  },
  {
    id: "oz",
    dimension: "mass",
    factor: 0.028349523125,
    en: { one: "oz", other: "oz" },
    ar: "أونصة",
    names: ["ounce", "ounces", "اونصه", "اونصات"],
    short: ["oz"],
    defaultTarget: "g",
  },
  {
    id: "l",
    dimension: "volume",
    factor: 1,
    en: { one: "liter", other: "liters" },
    ar: "لتر",
    names: ["liter", "liters", "litre", "litres", "لتر", "لترات", "لترا"],
    short: ["l"],
    defaultTarget: "gal",
  },
  {
    id: "ml",
    dimension: "volume",
    factor: 0.001,
    en: { one: "ml", other: "ml" },
    ar: "مل",
    names: ["milliliter", "milliliters", "millilitre", "millilitres", "مليلتر", "ملليلتر"],
    short: ["ml", "مل"],
    defaultTarget: "l",
  },
  {
    id: "gal",
    dimension: "volume",
    factor: 3.785411784,
    en: { one: "US gallon", other: "US gallons" },
    ar: "جالون أمريكي",
    names: ["gallon", "gallons", "جالون", "جالونات", "غالون"],
    short: ["gal"],
    defaultTarget: "l",
  },
  {
    id: "c",
    dimension: "temperature",
    factor: 1,
    en: { one: "°C", other: "°C" },
    ar: "درجة مئوية",
    names: ["celsius", "centigrade", "مئويه", "سيليزيه", "سلسيوس"],
    short: ["c"],
    defaultTarget: "f",
  },
  {
    id: "f",
    dimension: "temperature",
    factor: 5 / 9,
    offset: (-32 * 5) / 9,
    en: { one: "°F", other: "°F" },
    ar: "درجة فهرنهايت",
    names: ["fahrenheit", "فهرنهايت", "فهرنهيت"],
    short: ["f"],
    defaultTarget: "c",
  },
  {
    id: "k",
    dimension: "temperature",
    factor: 1,
    offset: -273.15,
    en: { one: "K", other: "K" },
    ar: "كلفن",
    names: ["kelvin", "كلفن"],
    short: [],
    defaultTarget: "c",
  },
];

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
