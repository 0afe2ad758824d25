/**
 * The phone number of the login and signup forms (issue 36): a country choice (the configured
 * country first, e.g. +966) and the national number, with that country's format as the example,
 * checked as the visitor types with the library the API uses. The form gets the number in E.164.
 */
import { useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { getCountries, getCountryCallingCode, getExampleNumber, isSupportedCountry, type CountryCode } from "libphonenumber-js";
import examples from "libphonenumber-js/examples.mobile.json";
import { useStorefront } from "../../hooks/useStorefront";
import { localeOf } from "../../lib/locale";
import { countryOf, internationalForm, phoneProblem, type PhoneProblem } from "./phoneCheck";
import "./PhoneField.css";

export interface PhoneFieldProps {
  /** The number in international form (what the form sends). */
  value: string;
  onChange(value: string): void;
  /** The form's own message after a submit (required, or the server's). */
  error?: string | undefined;
}

/** Until the configured country is known (storefront.php), and if it cannot be read. */
const FALLBACK_COUNTRY: CountryCode = "US";

export function PhoneField({ value, onChange, error }: PhoneFieldProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const configured = useStorefront()?.phoneCountry;
  const [chosen, setChosen] = useState<CountryCode | null>(null);
  const [typed, setTyped] = useState("");
  const [left, setLeft] = useState(false);
  const country = chosen ?? (configured && isSupportedCountry(configured) ? configured : FALLBACK_COUNTRY);

  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([localeOf(i18n.language)], { type: "region" });
    return getCountries()
      .map((code) => ({ code, name: names.of(code) ?? code, dial: getCountryCallingCode(code) }))
      .sort((a, b) => a.name.localeCompare(b.name, localeOf(i18n.language)));
  }, [i18n.language]);

  // The form was reset (or filled) from outside: show what it holds.
  useEffect(() => {
    if (value === "" && typed !== "") setTyped("");
  }, [value, typed]);

  function change(text: string, inCountry: CountryCode) {
    setTyped(text);
    const detected = countryOf(text);
    if (detected && detected !== inCountry) setChosen(detected);
    onChange(internationalForm(text, detected ?? inCountry));
  }

  const problem: PhoneProblem | null = typed.trim() ? phoneProblem(value) : null;
  // A number still being typed is short; that is said once the visitor leaves the field.
  const live = problem && (problem !== "tooShort" || left) ? problem : null;
  const shown =
    error ??
    (live ? t(`auth.phoneProblem.${live}`, { country: countries.find((c) => c.code === country)?.name ?? country }) : "");
  const example = getExampleNumber(country, examples)?.formatNational() ?? "";

  return (
    <div className="field phone-field">
      <label htmlFor={id}>{t("auth.phone")}</label>
      <div className="phone-field__row">
        <select
          className="select phone-field__country"
          aria-label={t("auth.phoneCountry")}
          value={country}
          onChange={(e) => {
            const next = e.target.value as CountryCode;
            setChosen(next);
            if (typed) change(typed, next);
          }}
        >
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {`${c.name} (+${c.dial})`}
            </option>
          ))}
        </select>
        <input
          id={id}
          name="phone"
          type="tel"
          className="input phone-field__number"
          autoComplete="tel-national"
          inputMode="tel"
          dir="ltr"
          placeholder={example}
          value={typed}
          onChange={(e) => change(e.target.value, country)}
          onBlur={() => setLeft(true)}
          required
          aria-invalid={shown ? true : undefined}
          aria-describedby={`${id}-hint${shown ? ` ${id}-error` : ""}`}
        />
      </div>
      <span id={`${id}-hint`} className="field-hint">
        {t("auth.phoneHint", { example: `+${getCountryCallingCode(country)} ${example}` })}
      </span>
      {shown && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {shown}
        </span>
      )}
    </div>
  );
}
