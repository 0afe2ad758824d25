/**
 * SPEC §2 SMS Integration, Configuration tab: the gateway and webhook settings, Test Gateway and
 * Save. The stored password only goes to the URL it was typed for: a new URL needs it again.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useToast } from "../../../../components/Toasts";
import { adminApi, type SmsIntegrationConfig, type SmsIntegrationForm } from "../../adminApi";
import { adminKeys, adminQueries, useAdminQuery } from "../../queries";
import { errorText, Panel, useCan } from "../../ui";
import { GatewayFields } from "./GatewayFields";
import { WebhookFieldset } from "./WebhookFieldset";

/** The form's copy of the settings: secrets empty (write-only), the allowlist one entry a line. */
function formOf(config: SmsIntegrationConfig): SmsIntegrationForm {
  const {
    webhook_url: _url,
    gateway_password_set: _password,
    webhook_secret_set: _secret,
    webhook_secret_previous_until: _until,
    ...rest
  } = config;
  return { ...rest, webhook_allowed_ips: config.webhook_allowed_ips.join("\n"), gateway_password: "", webhook_secret: "" };
}

export function ConfigTab() {
  const { t } = useTranslation();
  const toast = useToast();
  const can = useCan();
  const id = useId();
  const queryClient = useQueryClient();
  const { data: stored } = useAdminQuery(adminQueries.smsIntegration(), t("admin.smsIntegration.loadFailed"));
  const [form, setForm] = useState<SmsIntegrationForm | null>(null);
  const [error, setError] = useState("");
  const save = useMutation({
    mutationFn: adminApi.saveSmsIntegration,
    onSuccess: (res) => {
      queryClient.setQueryData(adminKeys.smsIntegration, res.config);
      setForm(formOf(res.config));
    },
  });
  const test = useMutation({ mutationFn: adminApi.testSmsGateway });

  // The form starts from the first settings read; later reads (a rotated secret) leave edits alone.
  useEffect(() => {
    if (stored) setForm((current) => current ?? formOf(stored));
  }, [stored]);
  if (!form || !stored) return null;
  const set = <K extends keyof SmsIntegrationForm>(key: K, value: SmsIntegrationForm[K]) => {
    // From the latest state, not this render's: two changes before a render both count.
    setForm((current) => current && { ...current, [key]: value });
    setError("");
  };
  const readOnly = !can("sms:manage");
  const passwordAgain = stored.gateway_password_set && form.gateway_url.trim() !== stored.gateway_url && !form.gateway_password;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    const rate = Number(form.rate_limit_per_minute);
    if (!Number.isInteger(rate) || rate < 1 || rate > 100) return setError(t("admin.smsIntegration.rateInvalid"));
    if (passwordAgain) return setError(t("admin.smsIntegration.passwordAgain"));
    setError("");
    try {
      await save.mutateAsync({ ...form, rate_limit_per_minute: rate });
      toast.success(t("admin.smsIntegration.saved"));
    } catch (caught) {
      const server = errorText(caught, "");
      if (server) setError(server);
      toast.error(server ? t("admin.smsIntegration.saveFailed") : t("admin.smsIntegration.saveFailedShort"));
    }
  }

  async function testGateway() {
    if (!form) return;
    if (passwordAgain) return setError(t("admin.smsIntegration.passwordAgain"));
    try {
      const res = await test.mutateAsync({
        gateway_url: form.gateway_url.trim(),
        gateway_format: form.gateway_format,
        gateway_username: form.gateway_username,
        gateway_password: form.gateway_password,
      });
      if (res.test_result?.success) toast.success(t("admin.smsIntegration.testOk"));
      else
        toast.error(
          t("admin.smsIntegration.testFailed", {
            error: res.test_result?.error ?? res.error ?? t("admin.smsIntegration.unknownError"),
          }),
        );
    } catch (caught) {
      const server = errorText(caught, "");
      toast.error(server ? t("admin.smsIntegration.testFailed", { error: server }) : t("admin.smsIntegration.testError"));
    }
  }

  const part = { id, form, set, stored, readOnly };
  return (
    <Panel title={t("admin.smsIntegration.tabConfig")}>
      <form className="admin-form" onSubmit={(e) => void submit(e)} noValidate data-testid="sms-integration-form">
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
        <GatewayFields {...part} passwordAgain={passwordAgain} />
        <WebhookFieldset {...part} />
        {!readOnly && (
          <div className="dialog__actions">
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => void testGateway()}
              disabled={test.isPending || !form.gateway_url.trim()}
            >
              {test.isPending ? t("admin.smsIntegration.testing") : t("admin.smsIntegration.test")}
            </button>
            <button type="submit" className="btn btn--primary" disabled={save.isPending}>
              {save.isPending ? t("admin.common.saving") : t("admin.smsIntegration.save")}
            </button>
          </div>
        )}
      </form>
    </Panel>
  );
}
