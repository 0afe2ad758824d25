/**
 * SPEC §2 SMS Config: the list of SMPP gateway settings; every field required, apiUrl a URL. The
 * password is write-only: an edit shows whether one is stored and keeps it when left empty,
 * unless the API URL changes (the stored password only goes where it was typed for).
 */
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "../../../components/Toasts";
import { adminApi, type SmsGateway, type SmsGatewayForm } from "../adminApi";
import { errorText, FormActions, Panel, Table, useCan, useConfirmedDelete, useLoad } from "../ui";

const load = () => adminApi.smsConfigs().then((r) => r.configs);
const FIELDS = ["gatewayName", "shortcode", "port", "smsType", "apiUrl", "username", "password"] as const;
const EMPTY: SmsGatewayForm = { gatewayName: "", shortcode: "", port: "", smsType: "MT", apiUrl: "", username: "", password: "" };

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

export default function SmsConfig() {
  const { t } = useTranslation();
  const can = useCan();
  const { data, reload } = useLoad(load, t("admin.smsConfig.loadFailed"));
  const [form, setForm] = useState<(SmsGatewayForm & { id?: string }) | null>(null);

  const deletion = useConfirmedDelete<SmsGateway>({
    remove: (gateway) => adminApi.deleteSmsConfig(gateway.id),
    title: t("admin.smsConfig.deleteTitle"),
    message: (gateway) => t("admin.smsConfig.deleteConfirm", { name: gateway?.gatewayName ?? "" }),
    deleted: t("admin.smsConfig.deleted"),
    failed: t("admin.smsConfig.deleteFailed"),
    onDeleted: reload,
  });

  return (
    <Panel
      title={t("admin.smsConfig.title")}
      actions={
        can("sms:manage") && (
          <button type="button" className="btn btn--primary" onClick={() => setForm({ ...EMPTY })}>
            + {t("admin.smsConfig.add")}
          </button>
        )
      }
    >
      {form && (
        <GatewayForm
          initial={form}
          onCancel={() => setForm(null)}
          onSaved={() => {
            setForm(null);
            reload();
          }}
        />
      )}
      <Table
        testId="sms-config-table"
        headers={[...FIELDS.filter((f) => f !== "password").map((f) => t(`admin.smsConfig.${f}`)), t("admin.users.actions")]}
        rows={data}
        empty={t("admin.smsConfig.empty")}
      >
        {(g) => (
          <tr key={g.id}>
            <td dir="auto">{g.gatewayName}</td>
            <td dir="ltr">{g.shortcode}</td>
            <td>{g.port}</td>
            <td>{g.smsType}</td>
            <td dir="ltr" className="admin-break" translate="no">
              {g.apiUrl}
            </td>
            <td dir="ltr" translate="no">
              {g.username}
            </td>
            <td className="admin-actions">
              {can("sms:manage") && (
                <>
                  <button
                    type="button"
                    className="btn btn--secondary btn--small"
                    onClick={() => {
                      const { password_set: _set, ...fields } = g;
                      setForm({ ...fields, password: "" });
                    }}
                  >
                    {t("admin.packages.edit")}
                  </button>
                  <button type="button" className="btn btn--danger btn--small" onClick={() => deletion.ask(g)}>
                    {t("admin.packages.delete")}
                  </button>
                </>
              )}
            </td>
          </tr>
        )}
      </Table>
      {deletion.dialog}
    </Panel>
  );
}

function GatewayForm({
  initial,
  onCancel,
  onSaved,
}: {
  initial: SmsGatewayForm & { id?: string };
  onCancel(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const [form, setForm] = useState(initial);
  // Editing: a password is stored and may stay so, unless the gateway moves to another URL.
  const keepsPassword = Boolean(initial.id) && form.apiUrl.trim() === initial.apiUrl;
  const [errors, setErrors] = useState<Partial<Record<(typeof FIELDS)[number], string>>>({});
  const [saving, setSaving] = useState(false);
  // From the latest state, not this render's: two changes before a render both count.
  const update = <K extends keyof SmsGatewayForm>(field: K, value: SmsGatewayForm[K]) =>
    setForm((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    for (const f of FIELDS) {
      if (f === "password" && keepsPassword) continue;
      if (String(form[f]).trim() === "") found[f] = t("admin.smsConfig.required", { field: t(`admin.smsConfig.${f}`) });
    }
    if (!found.apiUrl && !isUrl(form.apiUrl.trim())) found.apiUrl = t("admin.smsConfig.urlInvalid");
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      await adminApi.saveSmsConfig({ ...form, port: Number(form.port) });
      toast.success(t("admin.smsConfig.saved"));
      onSaved();
    } catch (caught) {
      toast.error(errorText(caught, t("admin.smsConfig.saveFailed")));
      setSaving(false);
    }
  }

  return (
    <form className="card admin-form" onSubmit={(e) => void submit(e)} noValidate data-testid="sms-config-form">
      <div className="admin-form-grid">
        {FIELDS.map((f) => (
          <div className="field" key={f}>
            <label htmlFor={`${id}-${f}`}>{t(`admin.smsConfig.${f}`)}</label>
            {f === "smsType" ? (
              <select
                id={`${id}-${f}`}
                className="select"
                value={form.smsType}
                onChange={(e) => update("smsType", e.target.value as "MT" | "MO")}
              >
                <option value="MT">MT</option>
                <option value="MO">MO</option>
              </select>
            ) : (
              <input
                id={`${id}-${f}`}
                className="input"
                dir="ltr"
                type={f === "port" ? "number" : f === "password" ? "password" : f === "apiUrl" ? "url" : "text"}
                {...(f === "password"
                  ? {
                      autoComplete: "new-password",
                      placeholder: keepsPassword ? t("admin.smsIntegration.keepPlaceholder") : "",
                    }
                  : {})}
                value={form[f]}
                onChange={(e) => update(f, e.target.value)}
                aria-invalid={errors[f] ? true : undefined}
                required={f !== "password" || !keepsPassword}
              />
            )}
            {errors[f] && <span className="field-error">{errors[f]}</span>}
          </div>
        ))}
      </div>
      <FormActions onCancel={onCancel} busy={saving} label={t("admin.smsConfig.save")} busyLabel={t("admin.common.saving")} />
    </form>
  );
}
