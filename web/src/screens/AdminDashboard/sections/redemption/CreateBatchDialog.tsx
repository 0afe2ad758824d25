/** Making a batch of redemption codes: label, how many codes, coins per code, uses per code, expiry. */
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { CreateRedemptionBatchResponse } from "@storefront/shared";
import { adminApi } from "../../adminApi";
import { Field, FormActions, Modal } from "../../forms";
import { adminKeys, useAdminMutation } from "../../queries";
import { errorText } from "../../ui";

const inDays = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setSeconds(0, 0);
  // datetime-local wants the local wall time without a zone.
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

export function CreateBatchDialog({ onClose, onMade }: { onClose(): void; onMade(made: CreateRedemptionBatchResponse): void }) {
  const { t } = useTranslation();
  const id = useId();
  const [form, setForm] = useState({ label: "", count: "10", coins: "100", usesPerCode: "1", expiresAt: inDays(30) });
  const [error, setError] = useState("");
  const create = useAdminMutation(adminApi.createRedemptionBatch, [adminKeys.redemption]);
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.label.trim()) return setError(t("admin.redemption.labelRequired"));
    setError("");
    try {
      const made = await create.mutateAsync({
        label: form.label.trim(),
        count: Number(form.count),
        coins: Number(form.coins),
        usesPerCode: Number(form.usesPerCode),
        expiresAt: new Date(form.expiresAt).toISOString(),
      });
      onMade(made);
    } catch (caught) {
      setError(errorText(caught, t("admin.redemption.createFailed")));
    }
  }

  const number = (key: "count" | "coins" | "usesPerCode", max: number) => (
    <Field id={`${id}-${key}`} label={t(`admin.redemption.${key}`)}>
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
    </Field>
  );

  return (
    <Modal open title={t("admin.redemption.create")} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="admin-form" data-testid="redemption-form">
        <Field id={`${id}-label`} label={t("admin.redemption.label")}>
          <input
            id={`${id}-label`}
            className="input"
            dir="auto"
            maxLength={80}
            value={form.label}
            onChange={(e) => set({ label: e.target.value })}
          />
        </Field>
        {number("count", 1000)}
        {number("coins", 1_000_000)}
        {number("usesPerCode", 1000)}
        <Field id={`${id}-expires`} label={t("admin.redemption.expires")}>
          <input
            id={`${id}-expires`}
            className="input"
            type="datetime-local"
            value={form.expiresAt}
            onChange={(e) => set({ expiresAt: e.target.value })}
          />
        </Field>
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
        <FormActions
          onCancel={onClose}
          busy={create.isPending}
          label={t("admin.redemption.make")}
          busyLabel={t("admin.common.saving")}
        />
      </form>
    </Modal>
  );
}
