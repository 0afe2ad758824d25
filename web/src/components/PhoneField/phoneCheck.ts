/**
 * The phone field's checks, with libphonenumber-js as the API reads numbers (shared/src/phone.ts):
 * what is typed is read in the chosen country unless it starts with "+" or "00", and a number the
 * library does not find possible (wrong length, no such country code) is refused with the reason.
 */
import {
  AsYouType,
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  isSupportedCountry,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
  type CountryCode,
} from "libphonenumber-js";
import examples from "libphonenumber-js/examples.mobile.json";

export type { CountryCode };

export type PhoneProblem = "required" | "notANumber" | "tooShort" | "tooLong" | "invalidCountry";

/** Spaces, dashes, dots and brackets as people type them; "00" as the international prefix. */
function compact(typed: string): string {
  const text = typed.trim().replace(/[\s\-().]/gu, "");
  return text.startsWith("00") ? `+${text.slice(2)}` : text;
}

/** True when the visitor wrote the number internationally ("+966...", "00966..."): the country choice does not apply. */
export function isInternational(typed: string): boolean {
  return compact(typed).startsWith("+");
}

/** The number to send: E.164 when the library reads it, else "+", the country code and the digits typed. */
export function internationalForm(typed: string, country: CountryCode): string {
  const text = compact(typed);
  if (!text) return "";
  const parsed = text.startsWith("+") ? parsePhoneNumberFromString(text) : parsePhoneNumberFromString(text, country);
  if (parsed) return parsed.number;
  const digits = text.replace(/\D/gu, "");
  if (text.startsWith("+")) return `+${digits}`;
  return `+${getCountryCallingCode(country)}${digits.replace(/^0+/u, "")}`;
}

/** What is wrong with a number in its international form (internationalForm), or null when it is possible. */
export function phoneProblem(international: string): PhoneProblem | null {
  if (!international) return "required";
  if (!/^\+\d+$/u.test(international)) return "notANumber";
  switch (validatePhoneNumberLength(international)) {
    case undefined:
      return null;
    case "TOO_SHORT":
      return "tooShort";
    case "TOO_LONG":
      return "tooLong";
    case "INVALID_COUNTRY":
      return "invalidCountry";
    default:
      // INVALID_LENGTH (a length between the country's possible ones) and NOT_A_NUMBER.
      return international.replace(/\D/gu, "").length < 8 ? "tooShort" : "notANumber";
  }
}

/** The country a number written internationally belongs to, when the library can tell. */
export function countryOf(typed: string): CountryCode | undefined {
  if (!isInternational(typed)) return undefined;
  const typer = new AsYouType();
  typer.input(compact(typed));
  return typer.getCountry() ?? undefined;
}

/** Whether `code` is a country the library knows ("SA"). */
export const isCountry = (code: string): code is CountryCode => isSupportedCountry(code);

/** Every country with its calling code and its name in `locale`, sorted by name. */
export function countryOptions(locale: string): { code: CountryCode; name: string; dial: string }[] {
  const names = new Intl.DisplayNames([locale], { type: "region" });
  return getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code, dial: getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}

/** A mobile number of `country` as it is written there ("051 234 5678"), and its calling code. */
export function exampleOf(country: CountryCode): { national: string; dial: string } {
  return { national: getExampleNumber(country, examples)?.formatNational() ?? "", dial: getCountryCallingCode(country) };
}
