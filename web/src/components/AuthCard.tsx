/** The centred card of the login and signup screens, with the password field (the phone one: PhoneField/). */
import { useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "./AppLink";
import { LanguageToggle } from "./LanguageToggle";
import "./AuthCard.css";

export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="auth-page">
      <header className="auth-page__top">
        <AppLink to="/" className="brand">
          <span className="brand__mark" aria-hidden="true">
            AI
          </span>
          {t("app.name")}
        </AppLink>
        <LanguageToggle />
      </header>
      <main className="auth-page__main" id="main">
        <section className="card auth-card">
          <h1 className="auth-card__title">{title}</h1>
          <p className="auth-card__subtitle">{subtitle}</p>
          {children}
        </section>
        <nav className="auth-card__footer" aria-label={t("nav.more")}>
          {footer}
        </nav>
      </main>
    </div>
  );
}

export interface FieldProps {
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
}

export function PasswordField({
  value,
  onChange,
  error,
  label,
  autoComplete,
}: FieldProps & { label: string; autoComplete: string }) {
  const { t } = useTranslation();
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="password-field">
        <input
          id={id}
          name="password"
          type={visible ? "text" : "password"}
          className="input"
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button
          type="button"
          className="password-field__toggle"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          aria-controls={id}
        >
          {visible ? t("auth.hidePassword") : t("auth.showPassword")}
        </button>
      </div>
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
