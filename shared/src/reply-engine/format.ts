/** Number, plural and language helpers shared by every skill's answers. */
import type { Language } from "../constants";

/** The English or the Arabic text, by language. */
export function say(language: Language, en: string, ar: string): string {
  return language === "ar" ? ar : en;
}

/**
 * A number for people: thousands separated by commas, at most `maxDecimals` decimals
 * with trailing zeros dropped; very large or very small values in 6 significant digits.
 */
export function formatNumber(value: number, maxDecimals = 2): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  const abs = Math.abs(value);
  if (abs === 0) return "0";
  if (abs >= 1e15 || abs < 10 ** -maxDecimals) {
    const [mantissa = "", exponent] = value.toPrecision(6).split("e");
    const trimmed = mantissa.includes(".") ? mantissa.replace(/\.?0+$/u, "") : mantissa;
    return exponent ? `${trimmed}e${exponent}` : trimmed;
  }
  const [whole = "0", fraction = ""] = abs.toFixed(maxDecimals).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/gu, ",");
  const decimals = fraction.replace(/0+$/u, "");
  const body = decimals ? `${grouped}.${decimals}` : grouped;
  return value < 0 && body !== "0" ? `-${body}` : body;
}

export interface ArabicForms {
  /** Used for 1 ("ساعة واحدة"). */
  one: string;
  /** Used for 2, in the accusative/genitive the answers need ("نحو ساعتين"). */
  two: string;
  /** Used for 3 to 10 ("ساعات"). */
  few: string;
  /** Used for 11 and more, and for fractions ("ساعة"). */
  many: string;
}

/** "1 hour" / "5 hours" in English, the Arabic counted-noun forms in Arabic. */
function countOf(language: Language, value: number, en: { one: string; other: string }, ar: ArabicForms): string {
  const shown = formatNumber(value, 1);
  if (language === "ar") {
    if (value === 1) return ar.one;
    if (value === 2) return ar.two;
    if (Number.isInteger(value) && value >= 3 && value <= 10) return `${shown} ${ar.few}`;
    return `${shown} ${ar.many}`;
  }
  return `${shown} ${value === 1 ? en.one : en.other}`;
}

const HOURS = { en: { one: "hour", other: "hours" }, ar: { one: "ساعة واحدة", two: "ساعتين", few: "ساعات", many: "ساعة" } };
const MINUTES = {
  en: { one: "minute", other: "minutes" },
  ar: { one: "دقيقة واحدة", two: "دقيقتين", few: "دقائق", many: "دقيقة" },
};
const DAYS = { en: { one: "day", other: "days" }, ar: { one: "يوم واحد", two: "يومين", few: "أيام", many: "يوم" } };

/** A duration in whole minutes: "45 minutes", "5 hours", "1 hour 24 minutes". */
export function formatDuration(hours: number, language: Language): string {
  const totalMinutes = Math.round(hours * 60);
  const h = Math.floor(totalMinutes / 60);
  const m = totalMinutes % 60;
  const hourText = countOf(language, h, HOURS.en, HOURS.ar);
  const minuteText = countOf(language, m, MINUTES.en, MINUTES.ar);
  if (h === 0) return minuteText;
  if (m === 0) return hourText;
  return say(language, `${hourText} ${minuteText}`, `${hourText} و${minuteText}`);
}

/** A number of days, to one decimal: "4.5 days". */
export function formatDays(days: number, language: Language): string {
  return countOf(language, Math.round(days * 10) / 10, DAYS.en, DAYS.ar);
}
