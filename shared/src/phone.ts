/**
 * One stored form per phone number: E.164 ("+" and digits), so "+14600059478", "14600059478",
 * "0014600059478" and "(460) 005-9478" are one account, and the SMS worker finds one subscriber.
 */
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";

export type PhoneCountry = CountryCode;

/** True for a two-letter region libphonenumber knows ("US", "SA", "EG"...). */
export function isPhoneCountry(code: string): code is PhoneCountry {
  return isSupportedCountry(code);
}

/** Spaces, dashes, dots and brackets as people type them; "00" as the international prefix. */
function stripped(raw: string): string {
  const compact = raw.trim().replace(/[\s\-().]/gu, "");
  return compact.startsWith("00") ? `+${compact.slice(2)}` : compact;
}

/**
 * The E.164 form of a number libphonenumber considers possible for its region, or null. A
 * number without "+" (or "00") is read in `defaultCountry` first, then as international digits
 * (gateways send "14600059478"). Sign-up takes only these (issue 31: "+015550001001" is no number).
 */
export function possiblePhone(raw: string, defaultCountry?: PhoneCountry): string | null {
  const text = stripped(raw);
  const digits = text.replace(/\D/gu, "");
  const candidates = text.startsWith("+") ? [`+${digits}`] : [digits, `+${digits}`];
  for (const candidate of candidates) {
    const parsed = candidate.startsWith("+")
      ? parsePhoneNumberFromString(candidate)
      : defaultCountry
        ? parsePhoneNumberFromString(candidate, defaultCountry)
        : undefined;
    if (parsed?.isPossible()) return parsed.number;
  }
  return null;
}

/**
 * The one stored form of a phone: possiblePhone's, else "+" and its digits, so every form of a
 * number stored before sign-up refused impossible ones (or sent by a gateway) still agrees.
 */
export function canonicalPhone(raw: string, defaultCountry?: PhoneCountry): string {
  return possiblePhone(raw, defaultCountry) ?? `+${stripped(raw).replace(/\D/gu, "")}`;
}

/**
 * Forms a number may have been stored in before every phone was canonical (digits, "+digits",
 * "00digits", as typed), canonical first: lookups find rows the migration has not rewritten yet.
 */
export function phoneLookupForms(raw: string, defaultCountry?: PhoneCountry): string[] {
  const canonical = canonicalPhone(raw, defaultCountry);
  const text = stripped(raw);
  const digits = canonical.slice(1);
  const typed = text.replace(/^\+/u, "");
  return [...new Set([canonical, digits, `00${digits}`, text, typed, `+${typed}`])];
}

/**
 * The country of an E.164 number: libphonenumber's, or for a number it cannot place in one country
 * (possible but not valid), its calling code's main one (+1: US).
 */
export function phoneCountryOf(e164: string): PhoneCountry | null {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return null;
  return parsed.country ?? parsed.getPossibleCountries()[0] ?? null;
}
