/**
 * The webhook half of the SMS integration form: the URL to give the gateway, how its calls are
 * authenticated, the secret's rotation (the new one shown this once), the IP allowlist.
 */
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { SMS_WEBHOOK_AUTH_MODES } from "@storefront/shared";
import { useToast } from "../../../../components/Toasts";
import { adminApi } from "../../adminApi";
import { Field } from "../../forms";
import { adminKeys } from "../../queries";
import { errorText, formatDate } from "../../ui";
import { CheckInput, ChoiceInput, SecretInput, TextInput, type ConfigPartProps } from "./fields";

export function WebhookFieldset(part: ConfigPartProps) {
  const { t } = useTranslation();
  const { id, form, set, stored, readOnly } = part;
  return (
    <fieldset className="admin-fieldset" data-testid="sms-webhook-settings">
      <legend>{t("admin.smsIntegration.webhookSection")}</legend>
      <Field
        id={`${id}-webhook`}
        label={t("admin.smsIntegration.webhookUrl")}
        hint={<span className="field-hint">{t("admin.smsIntegration.webhookHint")}</span>}
      >
        {/* A read-only box that wraps, so the whole URL shows on a phone too. */}
        <textarea id={`${id}-webhook`} className="textarea admin-url" dir="ltr" readOnly rows={2} value={stored.webhook_url} />
      </Field>
      <div className="admin-form-grid">
        <ChoiceInput
          {...part}
          name="webhook_auth"
          choices={SMS_WEBHOOK_AUTH_MODES}
          text={(mode) => t(`admin.smsIntegration.auth_${mode}`)}
        />
        {form.webhook_auth === "basic" && <TextInput {...part} name="webhook_username" />}
        <SecretInput {...part} name="webhook_secret" isStored={stored.webhook_secret_set} />
      </div>
      {!readOnly && <RotateSecret previousUntil={stored.webhook_secret_previous_until} />}
      <Field
        id={`${id}-ips`}
        label={t("admin.smsIntegration.webhook_allowed_ips")}
        hint={<span className="field-hint">{t("admin.smsIntegration.allowedIpsHint")}</span>}
      >
        <textarea
          id={`${id}-ips`}
          className="input"
          dir="ltr"
          rows={2}
          value={form.webhook_allowed_ips}
          placeholder="203.0.113.10&#10;198.51.100.0/24"
          disabled={readOnly}
          onChange={(e) => set("webhook_allowed_ips", e.target.value)}
        />
      </Field>
      <CheckInput {...part} name="webhook_query_token">
        <span>
          <Trans i18nKey="admin.smsIntegration.webhook_query_token" components={{ code: <code dir="ltr" translate="no" /> }} />
        </span>
      </CheckInput>
    </fieldset>
  );
}

/** Rotate: a new secret, shown until the page is left (the server never answers it again). */
function RotateSecret({ previousUntil }: { previousUntil: string | null }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [newSecret, setNewSecret] = useState("");
  const rotate = useMutation({
    mutationFn: adminApi.rotateWebhookSecret,
    onSuccess: (res) => {
      setNewSecret(res.webhook_secret);
      queryClient.setQueryData(adminKeys.smsIntegration, res.config);
    },
    onError: (caught) => toast.error(errorText(caught, t("admin.smsIntegration.rotateFailed"))),
  });
  return (
    <>
      <div className="admin-rotate">
        <button type="button" className="btn btn--secondary" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
          {rotate.isPending ? t("admin.smsIntegration.rotating") : t("admin.smsIntegration.rotate")}
        </button>
        {previousUntil && (
          <span className="field-hint">
            {t("admin.smsIntegration.previousUntil", { time: formatDate(previousUntil, i18n.language) })}
          </span>
        )}
      </div>
      {newSecret && (
        <div className="alert alert--warning" role="status" data-testid="sms-new-secret">
          <p>{t("admin.smsIntegration.newSecretOnce")}</p>
          <input
            className="input"
            dir="ltr"
            readOnly
            value={newSecret}
            aria-label={t("admin.smsIntegration.webhook_secret")}
            onFocus={(e) => e.target.select()}
          />
        </div>
      )}
    </>
  );
}
