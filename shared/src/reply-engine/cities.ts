/** Known cities and great-circle distances between them (the distance skill's knowledge). */
import type { Language } from "../constants";
import { formatNumber, say } from "./format";
import { findPhrases, phraseTable, type Token } from "./text";
import type { Skill } from "./types";

export interface City {
  id: string;
  en: string;
  ar: string;
  lat: number;
  lon: number;
  /** Extra spellings beyond the display names. */
  aliases?: readonly string[];
}

export const CITIES: readonly City[] = [
  { id: "cairo", en: "Cairo", ar: "القاهرة", lat: 30.0444, lon: 31.2357 },
  { id: "alexandria", en: "Alexandria", ar: "الإسكندرية", lat: 31.2001, lon: 29.9187, aliases: ["alex", "اسكندريه"] },
  { id: "giza", en: "Giza", ar: "الجيزة", lat: 30.0131, lon: 31.2089 },
  { id: "luxor", en: "Luxor", ar: "الأقصر", lat: 25.6872, lon: 32.6396 },
  { id: "aswan", en: "Aswan", ar: "أسوان", lat: 24.0889, lon: 32.8998 },
  { id: "riyadh", en: "Riyadh", ar: "الرياض", lat: 24.7136, lon: 46.6753 },
  { id: "jeddah", en: "Jeddah", ar: "جدة", lat: 21.4858, lon: 39.1925, aliases: ["jedda", "jiddah"] },
  { id: "mecca", en: "Mecca", ar: "مكة", lat: 21.3891, lon: 39.8579, aliases: ["makkah", "مكة المكرمة"] },
  {
    id: "medina",
    en: "Medina",
    ar: "المدينة المنورة",
    lat: 24.5247,
    lon: 39.5692,
    aliases: ["madinah", "al madinah"],
  },
  { id: "dammam", en: "Dammam", ar: "الدمام", lat: 26.4207, lon: 50.0888 },
  { id: "dubai", en: "Dubai", ar: "دبي", lat: 25.2048, lon: 55.2708 },
  { id: "abu-dhabi", en: "Abu Dhabi", ar: "أبو ظبي", lat: 24.4539, lon: 54.3773, aliases: ["ابوظبي", "abudhabi"] },
  { id: "doha", en: "Doha", ar: "الدوحة", lat: 25.2854, lon: 51.531 },
  { id: "kuwait", en: "Kuwait City", ar: "الكويت", lat: 29.3759, lon: 47.9774, aliases: ["kuwait"] },
  { id: "manama", en: "Manama", ar: "المنامة", lat: 26.2285, lon: 50.586 },
  { id: "muscat", en: "Muscat", ar: "مسقط", lat: 23.588, lon: 58.3829 },
  { id: "amman", en: "Amman", ar: "عمّان", lat: 31.9454, lon: 35.9284 },
  { id: "beirut", en: "Beirut", ar: "بيروت", lat: 33.8938, lon: 35.5018 },
  { id: "damascus", en: "Damascus", ar: "دمشق", lat: 33.5138, lon: 36.2765 },
  { id: "baghdad", en: "Baghdad", ar: "بغداد", lat: 33.3152, lon: 44.3661 },
  { id: "jerusalem", en: "Jerusalem", ar: "القدس", lat: 31.7683, lon: 35.2137, aliases: ["al quds"] },
  { id: "sanaa", en: "Sanaa", ar: "صنعاء", lat: 15.3694, lon: 44.191, aliases: ["sana'a"] },
  { id: "khartoum", en: "Khartoum", ar: "الخرطوم", lat: 15.5007, lon: 32.5599 },
  { id: "tripoli", en: "Tripoli", ar: "طرابلس", lat: 32.8872, lon: 13.1913 },
  { id: "tunis", en: "Tunis", ar: "تونس", lat: 36.8065, lon: 10.1815 },
  { id: "algiers", en: "Algiers", ar: "الجزائر", lat: 36.7538, lon: 3.0588 },
  { id: "casablanca", en: "Casablanca", ar: "الدار البيضاء", lat: 33.5731, lon: -7.5898 },
  { id: "rabat", en: "Rabat", ar: "الرباط", lat: 34.0209, lon: -6.8416 },
  { id: "marrakesh", en: "Marrakesh", ar: "مراكش", lat: 31.6295, lon: -7.9811, aliases: ["marrakech"] },
  { id: "istanbul", en: "Istanbul", ar: "إسطنبول", lat: 41.0082, lon: 28.9784, aliases: ["اسطنبول", "استانبول"] },
  { id: "tehran", en: "Tehran", ar: "طهران", lat: 35.6892, lon: 51.389 },
  { id: "london", en: "London", ar: "لندن", lat: 51.5074, lon: -0.1278 },
  { id: "paris", en: "Paris", ar: "باريس", lat: 48.8566, lon: 2.3522 },
  { id: "berlin", en: "Berlin", ar: "برلين", lat: 52.52, lon: 13.405 },
  { id: "rome", en: "Rome", ar: "روما", lat: 41.9028, lon: 12.4964 },
  { id: "madrid", en: "Madrid", ar: "مدريد", lat: 40.4168, lon: -3.7038 },
  { id: "moscow", en: "Moscow", ar: "موسكو", lat: 55.7558, lon: 37.6173 },
  { id: "new-york", en: "New York", ar: "نيويورك", lat: 40.7128, lon: -74.006, aliases: ["nyc", "new york city"] },
  { id: "los-angeles", en: "Los Angeles", ar: "لوس أنجلوس", lat: 34.0522, lon: -118.2437, aliases: ["لوس انجلس"] },
  { id: "toronto", en: "Toronto", ar: "تورنتو", lat: 43.6532, lon: -79.3832 },
  { id: "sao-paulo", en: "São Paulo", ar: "ساو باولو", lat: -23.5505, lon: -46.6333 },
  { id: "lagos", en: "Lagos", ar: "لاغوس", lat: 6.5244, lon: 3.3792 },
  { id: "nairobi", en: "Nairobi", ar: "نيروبي", lat: -1.2921, lon: 36.8219 },
  { id: "johannesburg", en: "Johannesburg", ar: "جوهانسبرغ", lat: -26.2041, lon: 28.0473 },
  { id: "mumbai", en: "Mumbai", ar: "مومباي", lat: 19.076, lon: 72.8777, aliases: ["bombay"] },
  { id: "delhi", en: "Delhi", ar: "دلهي", lat: 28.7041, lon: 77.1025, aliases: ["new delhi", "نيودلهي"] },
  { id: "karachi", en: "Karachi", ar: "كراتشي", lat: 24.8607, lon: 67.0011 },
  { id: "beijing", en: "Beijing", ar: "بكين", lat: 39.9042, lon: 116.4074 },
  { id: "tokyo", en: "Tokyo", ar: "طوكيو", lat: 35.6762, lon: 139.6503 },
  { id: "singapore", en: "Singapore", ar: "سنغافورة", lat: 1.3521, lon: 103.8198 },
  { id: "sydney", en: "Sydney", ar: "سيدني", lat: -33.8688, lon: 151.2093 },
];

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
export const KM_PER_MILE = 1.609344;

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

export function cityName(city: City, language: Language): string {
  return say(language, city.en, city.ar);
}

/** "from Cairo to Riyadh" / "من القاهرة إلى الرياض". */
export function routeText(route: Route, language: Language): string {
  return say(language, `from ${route.from.en} to ${route.to.en}`, `من ${route.from.ar} إلى ${route.to.ar}`);
}

/** The distance skill's answer for a route. */
export function distanceAnswer(route: Route, language: Language): string {
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
