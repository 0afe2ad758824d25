/** Known cities and great-circle distances between them (the distance skill's knowledge). */
import type { Language } from "../constants";
import { formatNumber, say } from "./format";
import { findPhrases, phraseTable, type Token } from "./text";
import type { Skill } from "./types";
import citiesData from "./data/cities.json";

export interface City {
  id: string;
  en: string;
  ar: string;
  lat: number;
  lon: number;
  /** Extra spellings beyond the display names. */
  aliases?: readonly string[];
}

export const CITIES = citiesData as readonly City[];

const CITY_TABLE = phraseTable(CITIES.map((c) => ({ phrases: [c.en, c.ar, ...(c.aliases ?? [])], value: c })));

export interface CityMention {
  city: City;
  /** Token index range of the mention. */
  start: number;
  end: number;
}

/** Cities named in the text, in order. */
export function findCities(tokens: Token[]): CityMention[] {
  return findPhrases(tokens, CITY_TABLE).map((m) => ({ city: m.value, start: m.start, end: m.end }));
}

const EARTH_RADIUS_KM = 6371;
const KM_PER_MILE = 1.609344;

/** Great-circle (haversine) distance in km. */
export function greatCircleKm(a: City, b: City): number {
  const rad = (deg: number): number => (deg * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface Route {
  from: City;
  to: City;
}

/** The route's distance as answers show it: whole kilometres. */
export function routeKm(route: Route): number {
  return Math.round(greatCircleKm(route.from, route.to));
}

function cityName(city: City, language: Language): string {
  return say(language, city.en, city.ar);
}

/** "from Cairo to Riyadh" / "من القاهرة إلى الرياض". */
export function routeText(route: Route, language: Language): string {
  return say(language, `from ${route.from.en} to ${route.to.en}`, `من ${route.from.ar} إلى ${route.to.ar}`);
}

/** The distance skill's answer for a route. */
function distanceAnswer(route: Route, language: Language): string {
  if (route.from.id === route.to.id) {
    return say(
      language,
      `${route.from.en} to ${route.to.en} is the same place: 0 km.`,
      `${route.from.ar} هي نفس المدينة، فالمسافة 0 كم.`,
    );
  }
  const km = routeKm(route);
  const miles = formatNumber(Math.round(km / KM_PER_MILE), 0);
  return say(
    language,
    `The distance ${routeText(route, language)} is about ${formatNumber(km, 0)} km (${miles} miles) in a straight line. By road it is usually longer.`,
    `المسافة ${routeText(route, language)} نحو ${formatNumber(km, 0)} كم (${miles} ميل) في خط مستقيم، والمسافة بالطريق البري أطول عادةً.`,
  );
}

/** A few city names to suggest, in the answer's language. */
export function exampleCities(language: Language): string {
  return ["cairo", "riyadh", "dubai", "london", "new-york"]
    .map((id) => CITIES.find((c) => c.id === id))
    .filter((c): c is City => c !== undefined)
    .map((c) => cityName(c, language))
    .join(say(language, ", ", "، "));
}

/** "distance from Cairo to Riyadh", "كم المسافة بين القاهرة والرياض", "and to Dubai?" after a route. */
export const distanceSkill: Skill = (ctx) => {
  const trip = ctx.trip;
  if (trip?.kind !== "distance") return null;
  if (trip.route) return { text: distanceAnswer(trip.route, ctx.language) };
  if (trip.km !== undefined) {
    const miles = formatNumber(trip.km / KM_PER_MILE);
    return {
      text: say(
        ctx.language,
        `${formatNumber(trip.km)} km is about ${miles} miles.`,
        `${formatNumber(trip.km)} كم تساوي نحو ${miles} ميل.`,
      ),
    };
  }
  return {
    text: say(
      ctx.language,
      `Tell me two cities I know, such as ${exampleCities(ctx.language)}, for example "distance from Cairo to Riyadh".`,
      `أخبرني بمدينتين أعرفهما، مثل ${exampleCities(ctx.language)}، مثلًا: "كم المسافة بين القاهرة والرياض".`,
    ),
  };
};
