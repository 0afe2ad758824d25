/** The current time and date, from input.now, in UTC so the answer never depends on the machine. */
import type { Language } from "../constants";
import { say } from "./format";
import { cues, hasPhrase, phraseAt } from "./text";
import type { Skill } from "./types";

const WEEKDAYS = {
  en: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
  ar: ["الأحد", "الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت"],
};
const MONTHS = {
  en: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
  ar: ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"],
};

/** "It is 14:05 (UTC) on Saturday, 21 November 2026." */
function timeAnswer(now: Date, language: Language): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  const clock = `${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}`;
  const names = language === "ar" ? "ar" : "en";
  const weekday = WEEKDAYS[names][now.getUTCDay()] ?? "";
  const date = `${now.getUTCDate()} ${MONTHS[names][now.getUTCMonth()] ?? ""} ${now.getUTCFullYear()}`;
  return say(
    language,
    `It is ${clock} (UTC) on ${weekday}, ${date}.`,
    `الساعة الآن ${clock} بالتوقيت العالمي (UTC)، يوم ${weekday} ${date}.`,
  );
}

const TIME_CUES = cues(
  "what time",
  "the time",
  "time is it",
  "current time",
  "time now",
  "the date",
  "todays date",
  "today s date",
  "what day",
  "which day",
  "what is today",
  "كم الساعه",
  "الساعه كم",
  "ما الوقت",
  "كم الوقت",
  "الوقت الان",
  "الوقت الحالي",
  "ما التاريخ",
  "تاريخ اليوم",
  "التاريخ اليوم",
  "اي يوم",
  "ما هو اليوم",
  "ايش الوقت",
  "قديش الساعه",
);
/** One-word questions: "time?", "الوقت؟". */
const TIME_WORDS = cues("time", "date", "today", "الوقت", "الساعه", "التاريخ", "now");

export const timeSkill: Skill = (ctx) => {
  const asked =
    hasPhrase(ctx.tokens, TIME_CUES) || (ctx.tokens.length === 1 && phraseAt(ctx.tokens, 0, TIME_WORDS) !== undefined);
  return asked ? { text: timeAnswer(ctx.now, ctx.language) } : null;
};
