/**
 * The create / edit form of an SMPP gateway: every field required, apiUrl a URL. The password is
 * write-only: an edit keeps the stored one when left empty, unless the API URL changes (the stored
 * password only goes where it was typed for).
 */
import { useId, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "../../../../components/Toasts";
import { adminApi, type SmsGatewayForm } from "../../adminApi";
import { Field, FormActions, useFormFields } from "../../forms";
import { adminKeys, useAdminMutation } from "../../queries";
import { errorText } from "../../ui";

export const GATEWAY_FIELDS = ["gatewayName", "shortcode", "port", "smsType", "apiUrl", "username", "password"] as const;
export type GatewayDraft = SmsGatewayForm & { id?: string };

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

const INPUT_TYPES: Partial<Record<(typeof GATEWAY_FIELDS)[number], string>> = {
  port: "number",
  password: "password",
  apiUrl: "url",
};

export function GatewayForm({ initial, onDone }: { initial: GatewayDraft; onDone(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const { form, set, errors, setErrors } = useFormFields(initial);
  const save = useAdminMutation(adminApi.saveSmsConfig, [adminKeys.smsGateways]);
  // Editing: a password is stored and may stay so, unless the gateway moves to another URL.
  const keepsPassword = Boolean(initial.id) && form.apiUrl.trim() === initial.apiUrl;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    for (const f of GATEWAY_FIELDS) {
      if (f === "password" && keepsPassword) continue;
      if (String(form[f]).trim() === "") found[f] = t("admin.smsConfig.required", { field: t(`admin.smsConfig.${f}`) });
    }
    if (!found.apiUrl && !isUrl(form.apiUrl.trim())) found.apiUrl = t("admin.smsConfig.urlInvalid");
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      await save.mutateAsync({ ...form, port: Number(form.port) });
      toast.success(t("admin.smsConfig.saved"));
      onDone();
    } catch (caught) {
      toast.error(errorText(caught, t("admin.smsConfig.saveFailed")));
    }
  }

  return (
    <form className="card admin-form" onSubmit={(e) => void submit(e)} noValidate data-testid="sms-config-form">
      <div className="admin-form-grid">
        {GATEWAY_FIELDS.map((f) => (
          <Field key={f} id={`${id}-${f}`} label={t(`admin.smsConfig.${f}`)} error={errors[f]}>
            {f === "smsType" ? (
              <select
                id={`${id}-${f}`}
                className="select"
                value={form.smsType}
                onChange={(e) => set("smsType", e.target.value as "MT" | "MO")}
              >
                <option value="MT">MT</option>
                <option value="MO">MO</option>
              </select>
            ) : (
              <input
                id={`${id}-${f}`}
                className="input"
                dir="ltr"
                type={INPUT_TYPES[f] ?? "text"}
                {...(f === "password"
                  ? {
                      autoComplete: "new-password",
                      placeholder: keepsPassword ? t("admin.smsIntegration.keepPlaceholder") : "",
                    }
                  : {})}
                value={form[f]}
                onChange={(e) => set(f, e.target.value)}
                aria-invalid={errors[f] ? true : undefined}
                required={f !== "password" || !keepsPassword}
              />
            )}
          </Field>
        ))}
      </div>
      <FormActions
        onCancel={onDone}
        busy={save.isPending}
        label={t("admin.smsConfig.save")}
        busyLabel={t("admin.common.saving")}
      />
    </form>
  );
}
