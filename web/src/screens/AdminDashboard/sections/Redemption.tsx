/**
 * Redemption codes (coins:grant): make a batch (label, how many codes, coins per code, uses per
 * code, expiry), see its codes this once (copy or CSV), and follow each batch: redeemed and
 * remaining uses, who redeemed, on or off.
 */
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { CreateRedemptionBatchResponse, RedemptionBatchView } from "@storefront/shared";
import { useToast } from "../../../components/Toasts";
import { adminApi } from "../adminApi";
import { errorText, FormActions, formatDate, formatNumber, Modal, Panel, Table, useLoad } from "../ui";

const load = () => adminApi.redemptionBatches().then((r) => r.batches);

const inDays = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setSeconds(0, 0);
  // datetime-local wants the local wall time without a zone.
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** The codes as a CSV file the administrator downloads once. */
function downloadCodes(made: CreateRedemptionBatchResponse) {
  const rows = [
    "code,coins,uses_per_code,expires_at",
    ...made.codes.map((c) => `${c},${made.batch.coins},${made.batch.uses_per_code},${made.batch.expires_at}`),
  ];
  const url = URL.createObjectURL(new Blob([`${rows.join("\r\n")}\r\n`], { type: "text/csv" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `codes-${made.batch.label.replace(/[^\w-]+/gu, "_")}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

export default function Redemption() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const { data, reload } = useLoad(load, t("admin.redemption.loadFailed"));
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<CreateRedemptionBatchResponse | null>(null);
  const [viewing, setViewing] = useState<RedemptionBatchView | null>(null);
  const n = (value: number) => formatNumber(value, i18n.language);

  async function toggle(batch: RedemptionBatchView) {
    try {
      await adminApi.setRedemptionBatch(batch.id, !batch.enabled);
      toast.success(batch.enabled ? t("admin.redemption.disabled") : t("admin.redemption.enabled"));
      reload();
    } catch (caught) {
      toast.error(errorText(caught, t("admin.redemption.updateFailed")));
    }
  }

  return (
    <Panel
      title={t("admin.redemption.title")}
      actions={
        <button type="button" className="btn btn--primary btn--small" onClick={() => setCreating(true)}>
          {t("admin.redemption.create")}
        </button>
      }
    >
      <p className="admin-muted">{t("admin.redemption.intro")}</p>
      <Table
        testId="redemption-table"
        headers={[
          t("admin.redemption.label"),
          t("admin.redemption.coins"),
          t("admin.redemption.usesPerCode"),
          t("admin.redemption.redeemed"),
          t("admin.redemption.remaining"),
          t("admin.redemption.expires"),
          t("admin.redemption.status"),
          "",
        ]}
        rows={data}
        empty={t("admin.redemption.none")}
      >
        {(b) => (
          <tr key={b.id} data-batch-id={b.id}>
            <td dir="auto">{b.label}</td>
            <td>{n(b.coins)}</td>
            <td>{n(b.uses_per_code)}</td>
            <td>{n(b.redeemed)}</td>
            <td>{n(b.remaining)}</td>
            <td>{formatDate(b.expires_at, i18n.language)}</td>
            <td>{b.enabled ? t("admin.redemption.on") : t("admin.redemption.off")}</td>
            <td className="admin-actions">
              <button type="button" className="btn btn--secondary btn--small" onClick={() => setViewing(b)}>
                {t("admin.redemption.who")}
              </button>
              <button type="button" className="btn btn--secondary btn--small" onClick={() => void toggle(b)}>
                {b.enabled ? t("admin.redemption.disable") : t("admin.redemption.enable")}
              </button>
            </td>
          </tr>
        )}
      </Table>
      {creating && (
        <CreateBatchDialog
          onClose={() => setCreating(false)}
          onMade={(result) => {
            setCreating(false);
            setMade(result);
            reload();
          }}
        />
      )}
      {made && (
        <Modal open title={t("admin.redemption.madeTitle", { count: made.codes.length })} onClose={() => setMade(null)}>
          <p className="alert alert--warning">{t("admin.redemption.onceOnly")}</p>
          <textarea className="input admin-codes" readOnly dir="ltr" translate="no" rows={8} value={made.codes.join("\n")} />
          <div className="dialog__actions">
            <button type="button" className="btn btn--secondary" onClick={() => downloadCodes(made)}>
              {t("admin.redemption.downloadCsv")}
            </button>
            <button type="button" className="btn btn--primary" onClick={() => setMade(null)}>
              {t("admin.redemption.done")}
            </button>
          </div>
        </Modal>
      )}
      {viewing && <Redemptions batch={viewing} onClose={() => setViewing(null)} />}
    </Panel>
  );
}

function CreateBatchDialog({ onClose, onMade }: { onClose(): void; onMade(made: CreateRedemptionBatchResponse): void }) {
  const { t } = useTranslation();
  const id = useId();
  const [form, setForm] = useState({ label: "", count: "10", coins: "100", usesPerCode: "1", expiresAt: inDays(30) });
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.label.trim()) return setError(t("admin.redemption.labelRequired"));
    setSaving(true);
    setError("");
    try {
      const made = await adminApi.createRedemptionBatch({
        label: form.label.trim(),
        count: Number(form.count),
        coins: Number(form.coins),
        usesPerCode: Number(form.usesPerCode),
        expiresAt: new Date(form.expiresAt).toISOString(),
      });
      onMade(made);
    } catch (caught) {
      setError(errorText(caught, t("admin.redemption.createFailed")));
      setSaving(false);
    }
  }

  const number = (key: "count" | "coins" | "usesPerCode", max: number) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{t(`admin.redemption.${key}`)}</label>
      <input
        id={`${id}-${key}`}
        className="input"
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        value={form[key]}
        onChange={(e) => set({ [key]: e.target.value })}
      />
    </div>
  );

  return (
    <Modal open title={t("admin.redemption.create")} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="admin-form" data-testid="redemption-form">
        <div className="field">
          <label htmlFor={`${id}-label`}>{t("admin.redemption.label")}</label>
          <input
            id={`${id}-label`}
            className="input"
            dir="auto"
            maxLength={80}
            value={form.label}
            onChange={(e) => set({ label: e.target.value })}
          />
        </div>
        {number("count", 1000)}
        {number("coins", 1_000_000)}
        {number("usesPerCode", 1000)}
        <div className="field">
          <label htmlFor={`${id}-expires`}>{t("admin.redemption.expires")}</label>
          <input
            id={`${id}-expires`}
            className="input"
            type="datetime-local"
            value={form.expiresAt}
            onChange={(e) => set({ expiresAt: e.target.value })}
          />
        </div>
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
        <FormActions onCancel={onClose} busy={saving} label={t("admin.redemption.make")} busyLabel={t("admin.common.saving")} />
      </form>
    </Modal>
  );
}

function Redemptions({ batch, onClose }: { batch: RedemptionBatchView; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const { data } = useLoad(
    () => adminApi.redemptionBatches(batch.id).then((r) => r.redemptions ?? []),
    t("admin.redemption.loadFailed"),
    batch.id,
  );
  return (
    <Modal open title={t("admin.redemption.whoTitle", { label: batch.label })} onClose={onClose}>
      <Table
        headers={[t("admin.redemption.phone"), t("admin.redemption.coins"), t("admin.redemption.when")]}
        rows={data}
        empty={t("admin.redemption.nobody")}
      >
        {(r) => (
          <tr key={`${r.user_id}-${r.at}`}>
            <td dir="ltr">{r.phone ?? r.user_id}</td>
            <td>{formatNumber(r.coins, i18n.language)}</td>
            <td>{formatDate(r.at, i18n.language)}</td>
          </tr>
        )}
      </Table>
      <div className="dialog__actions">
        <button type="button" className="btn btn--primary" onClick={onClose}>
          {t("admin.redemption.done")}
        </button>
      </div>
    </Modal>
  );
}
