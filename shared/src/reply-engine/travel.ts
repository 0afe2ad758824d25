/** Walking, running and bicycle times for a distance or a route (SPEC §9 speeds). */
import type { Language } from "../constants";
import { exampleCities, routeKm, routeText, type Route } from "./cities";
import { formatDays, formatDuration, formatNumber, say } from "./format";
import { findPhrases, phraseTable, type Token } from "./text";
import type { Skill } from "./types";

export type TravelMode = "walk" | "run" | "bicycle";

interface ModeInfo {
  speedKmh: number;
  /** Hours spent moving per day on multi-day trips; none given for cycling. */
  hoursPerDay?: number;
  en: { gerund: string; noun: string };
  ar: { gerund: string; noun: string };
  phrases: readonly string[];
}

/** SPEC §9: walking 5 km/h, running 10 km/h, bicycle 20 km/h; 8 h/day walking, 6 h/day running. */
const TRAVEL_MODES: Readonly<Record<TravelMode, ModeInfo>> = {
  walk: {
    speedKmh: 5,
    hoursPerDay: 8,
    en: { gerund: "Walking", noun: "walking" },
    ar: { gerund: "المشي", noun: "مشي" },
    phrases: ["walk", "walking", "walked", "on foot", "by foot", "hike", "hiking", "مشي", "مشيا", "امشي", "سيرا", "على الاقدام"],
  },
  run: {
    speedKmh: 10,
    hoursPerDay: 6,
    en: { gerund: "Running", noun: "running" },
    ar: { gerund: "الجري", noun: "جري" },
    phrases: ["run", "running", "jog", "jogging", "جري", "جريا", "ركض", "ركضا", "اركض"],
  },
  bicycle: {
    speedKmh: 20,
    en: { gerund: "Cycling", noun: "cycling" },
    ar: { gerund: "ركوب الدراجة", noun: "ركوب الدراجة" },
    phrases: ["bicycle", "bike", "biking", "cycling", "cycle", "bicycling", "دراجه", "دراجه هوائيه", "بسكليت", "بايسكل", "عجله"],
  },
};

export const ALL_MODES: readonly TravelMode[] = ["walk", "run", "bicycle"];

const MODE_TABLE = phraseTable(ALL_MODES.map((mode) => ({ phrases: TRAVEL_MODES[mode].phrases, value: mode })));

/** Travel modes named in the text, each once, in the order of ALL_MODES. */
export function findModes(tokens: Token[]): TravelMode[] {
  const named = new Set(findPhrases(tokens, MODE_TABLE).map((m) => m.value));
  return ALL_MODES.filter((mode) => named.has(mode));
}

/** Hours needed to cover `km` in a mode. */
function travelHours(km: number, mode: TravelMode): number {
  return km / TRAVEL_MODES[mode].speedKmh;
}

/** One sentence: how long a mode takes over a route or a plain distance. */
function travelSentence(mode: TravelMode, place: Route | number, language: Language): string {
  const info = TRAVEL_MODES[mode];
  const km = typeof place === "number" ? place : routeKm(place);
  const hours = travelHours(km, mode);
  const kmText = formatNumber(km, typeof place === "number" ? 2 : 0);
  const what =
    typeof place === "number"
      ? say(language, `${info.en.gerund} ${kmText} km`, `${info.ar.gerund} مسافة ${kmText} كم`)
      : say(
          language,
          `${info.en.gerund} ${routeText(place, language)} (about ${kmText} km in a straight line)`,
          `${info.ar.gerund} ${routeText(place, language)} (نحو ${kmText} كم في خط مستقيم)`,
        );
  const speed = say(language, `at ${info.speedKmh} km/h`, `بسرعة ${info.speedKmh} كم/ساعة`);
  const takes = say(language, `takes about ${formatDuration(hours, language)}`, `يستغرق نحو ${formatDuration(hours, language)}`);
  const perDay = info.hoursPerDay;
  const days =
    perDay !== undefined && hours > perDay
      ? say(
          language,
          `, which is about ${formatDays(hours / perDay, language)} at ${perDay} hours of ${info.en.noun} per day`,
          `، أي نحو ${formatDays(hours / perDay, language)} بمعدل ${perDay} ساعات ${info.ar.noun} يوميًا`,
        )
      : "";
  return `${what} ${speed} ${takes}${days}.`;
}

/** "how long to walk 25 km", "walking time from Cairo to Alexandria", "and by bicycle?" after a route. */
export const travelSkill: Skill = (ctx) => {
  const trip = ctx.trip;
  if (trip?.kind !== "travel") return null;
  const place = trip.route ?? trip.km;
  if (place === undefined) {
    return {
      text: say(
        ctx.language,
        `Tell me a distance or two cities I know (such as ${exampleCities(ctx.language)}), for example "how long to walk 10 km" or "walking time from Cairo to Alexandria".`,
        `أخبرني بمسافة أو بمدينتين أعرفهما (مثل ${exampleCities(ctx.language)})، مثلًا: "كم يستغرق المشي 10 كم" أو "كم يستغرق المشي من القاهرة إلى الإسكندرية".`,
      ),
    };
  }
  return { text: trip.modes.map((mode) => travelSentence(mode, place, ctx.language)).join("\n") };
};
