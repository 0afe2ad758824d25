/** The create / edit form of a wallet package, checked against the server's limits before it is sent. */
import { useId, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { PACKAGE_MAX, PRICE_MINOR_UNITS, priceInMinorUnits, SUBSCRIPTION_TYPES } from "@storefront/shared";
import { useToast } from "../../../../components/Toasts";
import { adminApi, type PackageForm } from "../../adminApi";
import { Field, FormActions, useFormFields } from "../../forms";
import { adminKeys, useAdminMutation } from "../../queries";
import { errorText } from "../../ui";

const STATUSES = ["active", "inactive"] as const;

export type PackageDraft = PackageForm & { id?: string };

export function PackageEditor({ initial, onDone }: { initial: PackageDraft; onDone(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const { form, set, errors, setErrors } = useFormFields(initial);
  const save = useAdminMutation(adminApi.savePackage, [adminKeys.packages]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!form.name.trim()) found.name = t("admin.packages.nameRequired");
    const coins = String(form.coins).trim() === "" ? 0 : Number(form.coins);
    if (!Number.isInteger(coins) || coins < 0) found.coins = t("admin.packages.coinsInvalid");
    else if (coins > PACKAGE_MAX.coins) found.coins = t("admin.packages.coinsMax", { max: PACKAGE_MAX.coins });
    const price = String(form.price).trim() === "" ? 0 : Number(form.price);
    if (!Number.isFinite(price) || price < 0) found.price = t("admin.packages.priceInvalid");
    else if (price > PACKAGE_MAX.price) found.price = t("admin.packages.priceMax", { max: PACKAGE_MAX.price });
    // The server's rule (shared/src/value-paths.ts): whole cents, never rounded down to free.
    else if (priceInMinorUnits(price) === null || (price > 0 && price < 1 / PRICE_MINOR_UNITS))
      found.price = t("admin.packages.priceStep", { step: 1 / PRICE_MINOR_UNITS });
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      await save.mutateAsync({ ...form, name: form.name.trim(), coins, price });
      toast.success(form.id ? t("admin.packages.updated") : t("admin.packages.created"));
      onDone();
    } catch (caught) {
      const server = errorText(caught, "");
      toast.error(server ? t("admin.packages.saveFailedDetail", { message: server }) : t("admin.packages.saveFailed"));
    }
  }

  const field = (key: keyof PackageForm) => `${id}-${key}`;
  const number = (key: "coins" | "price", step: number) => (
    <Field id={field(key)} label={t(`admin.packages.${key}`)} error={errors[key]}>
      <input
        id={field(key)}
        className="input"
        type="number"
        min={0}
        max={PACKAGE_MAX[key]}
        step={step}
        value={form[key]}
        onChange={(e) => set(key, e.target.value)}
        aria-invalid={errors[key] ? true : undefined}
      />
    </Field>
  );
  const choice = <K extends "subscription_type" | "status">(key: K, label: string, values: readonly PackageForm[K][]) => (
    <Field id={field(key)} label={label}>
      <select id={field(key)} className="select" value={form[key]} onChange={(e) => set(key, e.target.value as PackageForm[K])}>
        {values.map((value) => (
          <option key={value} value={value}>
            {t(`admin.packages.${value}`)}
          </option>
        ))}
      </select>
    </Field>
  );
  return (
    <form className="card admin-form admin-package-form" onSubmit={(e) => void submit(e)} noValidate data-testid="package-form">
      <h3 className="admin-subtitle">{form.id ? t("admin.packages.editTitle") : t("admin.packages.createTitle")}</h3>
      <div className="admin-form-grid">
        <Field id={field("name")} label={t("admin.packages.name")} error={errors.name}>
          <input
            id={field("name")}
            className="input"
            value={form.name}
            onChange={(e) => set("name", e.target.value)}
            aria-invalid={errors.name ? true : undefined}
          />
        </Field>
        {number("coins", 1)}
        {number("price", 0.01)}
        {choice("subscription_type", t("admin.packages.subscription"), SUBSCRIPTION_TYPES)}
        {choice("status", t("admin.packages.status"), STATUSES)}
        <Field id={field("description")} label={t("admin.packages.description")} wide>
          <textarea
            id={field("description")}
            className="input"
            rows={2}
            dir="auto"
            value={form.description}
            onChange={(e) => set("description", e.target.value)}
          />
        </Field>
      </div>
      <label className="admin-check">
        <input type="checkbox" checked={form.auto_renew} onChange={(e) => set("auto_renew", e.target.checked)} />
        {t("admin.packages.autoRenew")} — {t("admin.packages.autoRenewHint")}
      </label>
      <FormActions
        onCancel={onDone}
        busy={save.isPending}
        label={t("admin.packages.save")}
        busyLabel={t("admin.common.saving")}
      />
    </form>
  );
}
