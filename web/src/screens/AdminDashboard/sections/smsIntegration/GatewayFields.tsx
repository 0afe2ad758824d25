/** The gateway half of the SMS integration form: on/off, where and how replies are sent, the reply texts. */
import { useTranslation } from "react-i18next";
import { LIMITS, SMS_GATEWAY_FORMATS } from "@storefront/shared";
import { Field } from "../../forms";
import { CheckInput, ChoiceInput, SecretInput, TextInput, type ConfigPartProps } from "./fields";

export function GatewayFields({ passwordAgain, ...part }: ConfigPartProps & { passwordAgain: boolean }) {
  const { t } = useTranslation();
  const { id, form, set, stored, readOnly } = part;
  return (
    <>
      <CheckInput {...part} name="enabled">
        {t("admin.smsIntegration.enabled")}
      </CheckInput>
      <div className="admin-form-grid">
        <TextInput {...part} name="gateway_url" type="url" />
        <ChoiceInput
          {...part}
          name="gateway_format"
          choices={SMS_GATEWAY_FORMATS}
          text={(format) => t(`admin.smsIntegration.format_${format}`)}
        />
        <TextInput {...part} name="sender_id" />
        <TextInput {...part} name="gateway_username" />
        <SecretInput
          {...part}
          name="gateway_password"
          isStored={stored.gateway_password_set}
          hint={passwordAgain ? t("admin.smsIntegration.passwordAgain") : undefined}
        />
        <Field id={`${id}-rate`} label={t("admin.smsIntegration.rate_limit_per_minute")}>
          <input
            id={`${id}-rate`}
            className="input"
            type="number"
            min={1}
            max={100}
            value={form.rate_limit_per_minute}
            disabled={readOnly}
            onChange={(e) => set("rate_limit_per_minute", e.target.value)}
          />
        </Field>
      </div>
      <CheckInput {...part} name="auto_reply_enabled">
        {t("admin.smsIntegration.auto_reply_enabled")}
      </CheckInput>
      {(["welcome_message", "insufficient_funds_message"] as const).map((key) => (
        <Field key={key} id={`${id}-${key}`} label={t(`admin.smsIntegration.${key}`)}>
          <textarea
            id={`${id}-${key}`}
            className="input"
            rows={2}
            dir="auto"
            maxLength={LIMITS.smsCharsEnglish}
            value={form[key]}
            disabled={readOnly}
            onChange={(e) => set(key, e.target.value)}
          />
        </Field>
      ))}
    </>
  );
}
