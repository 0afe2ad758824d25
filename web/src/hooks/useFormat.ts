import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { relativeTime, type Language } from "@storefront/shared";
import { LOCALES } from "../lib/locale";

/** Numbers, dates and relative times in the interface language (Intl). */
export function useFormat() {
  const { i18n } = useTranslation();
  const language: Language = i18n.language === "ar" ? "ar" : "en";
  return useMemo(() => {
    const locale = LOCALES[language];
    const integer = new Intl.NumberFormat(locale);
    const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
    const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
    const time = new Intl.DateTimeFormat(locale, { timeStyle: "short" });
    const parse = (value: string | number | Date) => (value instanceof Date ? value : new Date(value));
    const valid = (d: Date) => !Number.isNaN(d.getTime());
    return {
      language,
      number: (n: number) => integer.format(n),
      /**
       * An amount of money in `currency` (ISO 4217) with that currency's sign and decimals, as the
       * language writes it; with no currency yet (still loading), the bare amount to 2 decimals.
       */
      money: (amount: number, currency: string | null, digits?: number) => {
        const parts = new Intl.NumberFormat(locale, {
          ...(currency ? { style: "currency", currency, currencyDisplay: "narrowSymbol" } : { minimumFractionDigits: 2 }),
          ...(digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits }),
        }).formatToParts(amount);
        if (language !== "ar") return parts.map((part) => part.value).join("");
        // Arabic: the sign kept whole as a left-to-right unit (U+2066…U+2069), or "US$" shows as "$US",
        // and the amount isolated (U+2068…U+2069) from the sentence around it.
        const text = parts.map((part) => (part.type === "currency" ? `\u2066${part.value}\u2069` : part.value)).join("");
        return `\u2068${text}\u2069`;
      },
      decimal: (n: number, digits: number) =>
        new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n),
      dateTime: (value: string | number | Date) => (valid(parse(value)) ? dateTime.format(parse(value)) : ""),
      date: (value: string | number | Date) => (valid(parse(value)) ? date.format(parse(value)) : ""),
      time: (value: string | number | Date) => (valid(parse(value)) ? time.format(parse(value)) : ""),
      relative: (value: string | number | Date) => (valid(parse(value)) ? relativeTime(parse(value), new Date(), language) : ""),
    };
  }, [language]);
}
