/**
 * What a distance or travel question is about, read from the message and the earlier
 * user messages, so follow-ups like "and by bicycle?" or "and to Dubai?" reuse the
 * route of the conversation.
 */
import { findCities, type CityMention, type Route } from "./cities";
import { cues, hasPhrase, phraseAt, tokenize, type Token } from "./text";
import { ALL_MODES, findModes, type TravelMode } from "./travel";
import { findDistanceKm } from "./units";

export interface TripQuery {
  kind: "distance" | "travel";
  route?: Route;
  /** A distance the user wrote ("25 km"), used when there is no route. */
  km?: number;
  /** Modes to answer for travel questions. */
  modes: TravelMode[];
}

const DISTANCE_CUES = cues(
  "distance",
  "how far",
  "far is",
  "far from",
  "how many km",
  "how many kilometers",
  "how many kilometres",
  "how many miles",
  "km between",
  "مسافه",
  "كم تبعد",
  "كم يبعد",
  "تبعد",
  "يبعد",
  "كم كيلو",
);
const TRAVEL_CUES = cues(
  "how long",
  "how much time",
  "how many hours",
  "how many days",
  "travel time",
  "time to get",
  "يستغرق",
  "تستغرق",
  "كم من الوقت",
  "كم ساعه",
  "كم يوم",
  "مده",
);
const FROM = cues("from", "من");

interface Analysis {
  tokens: Token[];
  cities: CityMention[];
  km: number | undefined;
  modes: TravelMode[];
  distanceCue: boolean;
  travelCue: boolean;
}

interface TripState {
  route?: Route;
  km?: number;
  modes: TravelMode[];
}

function analyze(text: string, tokens: Token[] = tokenize(text)): Analysis {
  return {
    tokens,
    cities: findCities(tokens),
    km: findDistanceKm(text),
    modes: findModes(tokens),
    distanceCue: hasPhrase(tokens, DISTANCE_CUES),
    travelCue: hasPhrase(tokens, TRAVEL_CUES),
  };
}

function afterFrom(a: Analysis, mention: CityMention): boolean {
  return mention.start > 0 && phraseAt(a.tokens, mention.start - 1, FROM) !== undefined;
}

/** True when the message sets or changes where the trip goes. */
function changesPlace(a: Analysis, before: TripState): boolean {
  return a.km !== undefined || a.cities.length >= 2 || (a.cities.length === 1 && before.route !== undefined);
}

function apply(state: TripState, a: Analysis): TripState {
  let { route, km, modes } = state;
  const [first, second] = a.cities;
  if (a.km !== undefined) {
    km = a.km;
    route = undefined;
  } else if (first && second) {
    // "to Riyadh from Cairo": the city after "from" is the origin.
    route =
      afterFrom(a, second) && !afterFrom(a, first)
        ? { from: second.city, to: first.city }
        : { from: first.city, to: second.city };
    km = undefined;
  } else if (first && route) {
    route = afterFrom(a, first) ? { from: first.city, to: route.to } : { from: route.from, to: first.city };
  }
  if (a.modes.length > 0) modes = a.modes;
  else if (a.distanceCue) modes = [];
  return { route, km, modes };
}

/** The trip question of the message, or null when it is not about distances or travel. */
export function resolveTrip(text: string, tokens: Token[], previousUserTexts: readonly string[]): TripQuery | null {
  const current = analyze(text, tokens);
  const placeNamed = current.km !== undefined || current.cities.length > 0;
  if (!placeNamed && current.modes.length === 0 && !current.distanceCue && !current.travelCue) return null;

  const before = previousUserTexts.map((t) => analyze(t)).reduce(apply, { modes: [] } as TripState);
  const after = apply(before, current);
  const hasPlace = after.route !== undefined || after.km !== undefined;
  const hadPlace = before.route !== undefined || before.km !== undefined;

  let kind: TripQuery["kind"];
  if (current.modes.length > 0) kind = "travel";
  else if (current.distanceCue) kind = "distance";
  else if (current.travelCue) kind = "travel";
  else if (changesPlace(current, before) && (current.cities.length >= 2 || hadPlace)) {
    kind = after.modes.length > 0 ? "travel" : "distance";
  } else return null;

  // A bare mode or "how long" with nothing to measure is not a trip question.
  if (!hasPlace && !current.distanceCue && !(current.travelCue && (current.modes.length > 0 || placeNamed))) return null;

  const modes = kind === "travel" ? (after.modes.length > 0 ? after.modes : [...ALL_MODES]) : [];
  return { kind, route: after.route, km: after.km, modes };
}
