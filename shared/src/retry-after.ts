import type { Language } from "./constants";

/**
 * "in 45 seconds", "in 5 minutes", "خلال 5 دقائق": when a refused call (429, Retry-After in
 * seconds) may be tried again, in the user's language with its own plural rules. Rounded up to
 * whole minutes past a minute and whole hours past an hour.
 */
export function retryWhen(language: Language, seconds: number): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: "always" });
  const s = Math.max(1, Math.ceil(seconds));
  if (s <= 60) return format.format(s, "second");
  if (s <= 3600) return format.format(Math.ceil(s / 60), "minute");
  return format.format(Math.ceil(s / 3600), "hour");
}
