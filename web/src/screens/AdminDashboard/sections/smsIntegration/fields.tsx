/** The inputs of the SMS integration form, each bound to one key of the form's values. */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SmsIntegrationConfig, SmsIntegrationForm } from "../../adminApi";
import { Field } from "../../forms";

/** What every part of the configuration form is given: the values, their setter, the stored settings. */
export interface ConfigPartProps {
  /** The prefix of the inputs' ids. */
  id: string;
  form: SmsIntegrationForm;
  set<K extends keyof SmsIntegrationForm>(key: K, value: SmsIntegrationForm[K]): void;
  stored: SmsIntegrationConfig;
  readOnly: boolean;
}

type Bound = Pick<ConfigPartProps, "id" | "form" | "set" | "readOnly">;

export function TextInput({
  id,
  form,
  set,
  readOnly,
  name,
  type = "text",
}: Bound & { name: "gateway_url" | "sender_id" | "gateway_username" | "webhook_username"; type?: string }) {
  const { t } = useTranslation();
  return (
    <Field id={`${id}-${name}`} label={t(`admin.smsIntegration.${name}`)}>
      <input
        id={`${id}-${name}`}
        className="input"
        dir="ltr"
        type={type}
        value={form[name]}
        disabled={readOnly}
        onChange={(e) => set(name, e.target.value)}
      />
    </Field>
  );
}

/** A write-only secret: shows whether one is stored; typing replaces it, empty keeps it. */
export function SecretInput({
  id,
  form,
  set,
  readOnly,
  name,
  isStored,
  hint,
}: Bound & { name: "gateway_password" | "webhook_secret"; isStored: boolean; hint?: string | undefined }) {
  const { t } = useTranslation();
  const label = (
    <>
      {t(`admin.smsIntegration.${name}`)}{" "}
      <span className={`admin-badge ${isStored ? "admin-badge--ok" : "admin-badge--off"}`}>
        {isStored ? t("admin.smsIntegration.isSet") : t("admin.smsIntegration.notSet")}
      </span>
    </>
  );
  return (
    <Field id={`${id}-${name}`} label={label} error={hint}>
      <input
        id={`${id}-${name}`}
        className="input"
        dir="ltr"
        type="password"
        autoComplete="new-password"
        value={form[name]}
        placeholder={isStored ? t("admin.smsIntegration.keepPlaceholder") : ""}
        disabled={readOnly}
        aria-invalid={hint ? true : undefined}
        onChange={(e) => set(name, e.target.value)}
      />
    </Field>
  );
}

/** A checkbox of the form, its label beside it. */
export function CheckInput({
  form,
  set,
  readOnly,
  name,
  children,
}: Omit<Bound, "id"> & {
  name: "enabled" | "auto_reply_enabled" | "webhook_query_token";
  children: ReactNode;
}) {
  return (
    <label className="admin-check">
      <input type="checkbox" checked={form[name]} disabled={readOnly} onChange={(e) => set(name, e.target.checked)} />
      {children}
    </label>
  );
}

/** A choice among fixed values, each shown by its translated text. */
export function ChoiceInput<K extends "gateway_format" | "webhook_auth">({
  id,
  form,
  set,
  readOnly,
  name,
  choices,
  text,
}: Bound & { name: K; choices: readonly SmsIntegrationForm[K][]; text(choice: SmsIntegrationForm[K]): string }) {
  const { t } = useTranslation();
  return (
    <Field id={`${id}-${name}`} label={t(`admin.smsIntegration.${name}`)}>
      <select
        id={`${id}-${name}`}
        className="select"
        value={form[name]}
        disabled={readOnly}
        onChange={(e) => set(name, e.target.value as SmsIntegrationForm[K])}
      >
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {text(choice)}
          </option>
        ))}
      </select>
    </Field>
  );
}
