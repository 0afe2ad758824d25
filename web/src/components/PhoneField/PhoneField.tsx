/**
 * The phone number of the login, signup and verify-phone forms (issue 36): a country choice (the configured
 * country first, e.g. +966) and the national number, with that country's format as the example,
 * checked as the visitor types with the library the API uses. The form gets the number in E.164.
 */
import { useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useStorefront } from "../../hooks/useStorefront";
import { localeOf } from "../../lib/locale";
import type { CountryCode, PhoneProblem } from "./phoneCheck";
import { usePhoneLibrary } from "./phoneLibrary";
import "./PhoneField.css";

export interface PhoneFieldProps {
  /** The number in international form (what the form sends). */
  value: string;
  onChange(value: string): void;
  /** The form's own message after a submit (required, or the server's). */
  error?: string | undefined;
  /** The field's label, when not the sign-in forms' "Phone number". */
  label?: string | undefined;
}

/** Until the configured country is known (storefront.php), and if it cannot be read. */
const FALLBACK_COUNTRY = "US";

export function PhoneField({ value, onChange, error, label }: PhoneFieldProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const lib = usePhoneLibrary();
  const configured = useStorefront()?.phoneCountry;
  const [chosen, setChosen] = useState<CountryCode | null>(null);
  const [typed, setTyped] = useState("");
  const [left, setLeft] = useState(false);
  const country = (chosen ?? (configured && lib?.isCountry(configured) ? configured : FALLBACK_COUNTRY)) as CountryCode;
  const locale = localeOf(i18n.language);
  const countries = useMemo(() => lib?.countryOptions(locale) ?? [], [lib, locale]);

  // The form was reset from outside: show what it holds.
  useEffect(() => {
    if (value === "" && typed !== "") setTyped("");
  }, [value, typed]);

  function change(text: string, inCountry: CountryCode) {
    setTyped(text);
    if (!lib) {
      // Typed before the library came: sent as typed, read again once it is here (below).
      onChange(text.trim());
      return;
    }
    const detected = lib.countryOf(text);
    if (detected && detected !== inCountry) setChosen(detected);
    onChange(lib.internationalForm(text, detected ?? inCountry));
  }

  // The library arrived after the visitor started typing: send the number in E.164 from now on.
  useEffect(() => {
    if (lib && typed) onChange(lib.internationalForm(typed, lib.countryOf(typed) ?? country));
    // Only when the library arrives.
  }, [lib]);

  const problem: PhoneProblem | null = lib && typed.trim() ? lib.phoneProblem(value) : null;
  // A number still being typed is short; that is said once the visitor leaves the field.
  const live = problem && (problem !== "tooShort" || left) ? problem : null;
  const shown = error ?? (live ? t(`auth.phoneProblem.${live}`) : "");
  const example = lib?.exampleOf(country);

  return (
    <div className="field phone-field">
      <label htmlFor={id}>{label ?? t("auth.phone")}</label>
      <div className="phone-field__row">
        <select
          className="select phone-field__country"
          aria-label={t("auth.phoneCountry")}
          value={country}
          disabled={!lib}
          onChange={(e) => {
            const next = e.target.value as CountryCode;
            setChosen(next);
            if (typed) change(typed, next);
          }}
        >
          {lib ? (
            countries.map((c) => (
              <option key={c.code} value={c.code}>
                {`${c.name} (+${c.dial})`}
              </option>
            ))
          ) : (
            // Keyed by its code, like the list's: when the library comes, this very node stays (the
            // server rendered it; hydration keeps it) and the other countries join it.
            <option key={country} value={country}>
              {new Intl.DisplayNames([locale], { type: "region" }).of(country) ?? country}
            </option>
          )}
        </select>
        <input
          id={id}
          name="phone"
          type="tel"
          className="input phone-field__number"
          autoComplete="tel-national"
          inputMode="tel"
          dir="ltr"
          placeholder={example?.national ?? ""}
          value={typed}
          onChange={(e) => change(e.target.value, country)}
          onBlur={() => setLeft(true)}
          required
          aria-invalid={shown ? true : undefined}
          aria-describedby={`${id}-hint${shown ? ` ${id}-error` : ""}`}
        />
      </div>
      <span id={`${id}-hint`} className="field-hint">
        {example ? t("auth.phoneHint", { example: `+${example.dial} ${example.national}` }) : "\u00a0"}
      </span>
      {shown && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {shown}
        </span>
      )}
    </div>
  );
}
