import type { Language } from "@storefront/shared";

/**
 * The one locale each language formats numbers and dates with. Arabic uses Western digits
 * (`nu-latn`): prices, phone numbers and the numbers inside the texts are written that way, so
 * one digit style shows on a screen instead of a mix of ٥٬٠٠٠ and 5000.
 */
export const LOCALES: Record<Language, string> = { en: "en-US", ar: "ar-EG-u-nu-latn" };

export function localeOf(language: string): string {
  return language === "ar" ? LOCALES.ar : LOCALES.en;
}
