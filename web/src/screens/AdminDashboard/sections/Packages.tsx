/**
 * SPEC §2 Wallet Packages: a card per package, a create/edit form, a summary; the three fallback
 * packages of SPEC §9 only when the list fails to load or is empty.
 */
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import {
  FALLBACK_PACKAGES,
  PACKAGE_MAX,
  PRICE_MINOR_UNITS,
  priceInMinorUnits,
  SUBSCRIPTION_TYPES,
  type WalletPackage,
} from "@storefront/shared";
import { useToast } from "../../../components/Toasts";
import { useMoney } from "../../../hooks/useStorefront";
import { adminApi, type PackageForm } from "../adminApi";
import { errorText, FormActions, formatNumber, Panel, useCan, useConfirmedDelete, useLoad } from "../ui";

const load = () => adminApi.packages().then((r) => r.packages);

const EMPTY_FORM: PackageForm = {
  name: "",
  coins: 0,
  price: 0,
  subscription_type: "daily",
  auto_renew: true,
  description: "",
  status: "active",
};

type Shown = WalletPackage & { fallback?: boolean };

function fallbackPackages(): Shown[] {
  return FALLBACK_PACKAGES.map((p, i) => ({ ...p, id: `fallback-${i}`, status: "active", created_at: "", fallback: true }));
}

export default function Packages() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const { data, failed, loading, reload } = useLoad(load, t("admin.packages.loadFailed"));
  const [form, setForm] = useState<(PackageForm & { id?: string }) | null>(null);
  const n = (value: number) => formatNumber(value, i18n.language);
  const toMoney = useMoney();
  // SPEC §9: prices to 2 decimals, the price per 1K coins to 3.
  const money = (value: number) => toMoney(value, 2);

  const useFallback = !loading && (failed || (data?.length ?? 0) === 0);
  const shown: Shown[] = useFallback ? fallbackPackages() : (data ?? []);
  const summary = {
    count: shown.length,
    value: shown.reduce((sum, p) => sum + p.price, 0),
    coins: shown.reduce((sum, p) => sum + p.coins, 0),
    autoRenew: shown.filter((p) => p.auto_renew).length,
  };

  const deletion = useConfirmedDelete<Shown>({
    remove: (pkg) => adminApi.deletePackage(pkg.id),
    title: t("admin.packages.deleteTitle"),
    message: (pkg) => t("admin.packages.deleteConfirm", { name: pkg?.name ?? "" }),
    deleted: t("admin.packages.deleted"),
    failed: t("admin.packages.deleteFailed"),
    onDeleted: reload,
  });

  return (
    <div className="admin-stack">
      <Panel
        title={t("admin.packages.title")}
        actions={
          can("packages:manage") && (
            <button type="button" className="btn btn--primary" onClick={() => setForm({ ...EMPTY_FORM })}>
              + {t("admin.packages.new")}
            </button>
          )
        }
      >
        {useFallback && <p className="alert alert--warning">{t("admin.packages.fallbackNotice")}</p>}
        {form && (
          <PackageEditor
            initial={form}
            onCancel={() => setForm(null)}
            onSaved={() => {
              setForm(null);
              reload();
            }}
          />
        )}
        <div className="admin-package-grid" data-testid="package-cards">
          {shown.map((p) => (
            <article key={p.id} className="card admin-package" data-testid="package-card">
              <header>
                <h3 dir="auto">{p.name}</h3>
                <div className="admin-badges">
                  <span className="admin-badge">{t(`admin.packages.${p.subscription_type}`)}</span>
                  {p.auto_renew && <span className="admin-badge admin-badge--ok">{t("admin.packages.autoRenew")}</span>}
                  {p.status === "inactive" && (
                    <span className="admin-badge admin-badge--off">{t("admin.packages.inactive")}</span>
                  )}
                </div>
              </header>
              <p className="admin-package__coins">
                {n(p.coins)} <small>{t("admin.packages.coinsUnit")}</small>
              </p>
              <p className="admin-package__price">{money(p.price)}</p>
              <p className="admin-muted">
                {t("admin.packages.perK", { price: p.coins > 0 ? toMoney((p.price / p.coins) * 1000, 3) : "—" })}
              </p>
              {p.description && <p dir="auto">{p.description}</p>}
              {!p.fallback && can("packages:manage") && (
                <footer className="admin-actions">
                  <button
                    type="button"
                    className="btn btn--secondary btn--small"
                    onClick={() =>
                      setForm({
                        id: p.id,
                        name: p.name,
                        coins: p.coins,
                        price: p.price,
                        subscription_type: p.subscription_type,
                        auto_renew: p.auto_renew,
                        description: p.description,
                        status: p.status,
                      })
                    }
                  >
                    {t("admin.packages.edit")}
                  </button>
                  <button type="button" className="btn btn--danger btn--small" onClick={() => deletion.ask(p)}>
                    {t("admin.packages.delete")}
                  </button>
                </footer>
              )}
            </article>
          ))}
        </div>
      </Panel>
      <Panel title={t("admin.packages.summary")}>
        <dl className="admin-summary" data-testid="package-summary">
          <div>
            <dt>{t("admin.packages.count")}</dt>
            <dd>{n(summary.count)}</dd>
          </div>
          <div>
            <dt>{t("admin.packages.totalValue")}</dt>
            <dd>{money(summary.value)}</dd>
          </div>
          <div>
            <dt>{t("admin.packages.totalCoins")}</dt>
            <dd>{n(summary.coins)}</dd>
          </div>
          <div>
            <dt>{t("admin.packages.autoRenewPlans")}</dt>
            <dd>{n(summary.autoRenew)}</dd>
          </div>
        </dl>
      </Panel>
      {deletion.dialog}
    </div>
  );
}

function PackageEditor({
  initial,
  onCancel,
  onSaved,
}: {
  initial: PackageForm & { id?: string };
  onCancel(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof PackageForm, string>>>({});
  const [saving, setSaving] = useState(false);
  // Editing a field clears its error: an error stays only while the field is still wrong.
  const set = <K extends keyof PackageForm>(key: K, value: PackageForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };

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
    setSaving(true);
    try {
      await adminApi.savePackage({ ...form, name: form.name.trim(), coins, price });
      toast.success(form.id ? t("admin.packages.updated") : t("admin.packages.created"));
      onSaved();
    } catch (caught) {
      const server = errorText(caught, "");
      toast.error(server ? t("admin.packages.saveFailedDetail", { message: server }) : t("admin.packages.saveFailed"));
      setSaving(false);
    }
  }

  const field = (key: keyof PackageForm) => `${id}-${key}`;
  return (
    <form className="card admin-form admin-package-form" onSubmit={(e) => void submit(e)} noValidate data-testid="package-form">
      <h3 className="admin-subtitle">{form.id ? t("admin.packages.editTitle") : t("admin.packages.createTitle")}</h3>
      <div className="admin-form-grid">
        <div className="field">
          <label htmlFor={field("name")}>{t("admin.packages.name")}</label>
          <input
            id={field("name")}
            className="input"
            value={form.name}
            onChange={(e) => set("name", e.target.value)}
            aria-invalid={errors.name ? true : undefined}
          />
          {errors.name && <span className="field-error">{errors.name}</span>}
        </div>
        <div className="field">
          <label htmlFor={field("coins")}>{t("admin.packages.coins")}</label>
          <input
            id={field("coins")}
            className="input"
            type="number"
            min={0}
            max={PACKAGE_MAX.coins}
            step={1}
            value={form.coins}
            onChange={(e) => set("coins", e.target.value)}
            aria-invalid={errors.coins ? true : undefined}
          />
          {errors.coins && <span className="field-error">{errors.coins}</span>}
        </div>
        <div className="field">
          <label htmlFor={field("price")}>{t("admin.packages.price")}</label>
          <input
            id={field("price")}
            className="input"
            type="number"
            min={0}
            max={PACKAGE_MAX.price}
            step={0.01}
            value={form.price}
            onChange={(e) => set("price", e.target.value)}
            aria-invalid={errors.price ? true : undefined}
          />
          {errors.price && <span className="field-error">{errors.price}</span>}
        </div>
        <div className="field">
          <label htmlFor={field("subscription_type")}>{t("admin.packages.subscription")}</label>
          <select
            id={field("subscription_type")}
            className="select"
            value={form.subscription_type}
            onChange={(e) => set("subscription_type", e.target.value as PackageForm["subscription_type"])}
          >
            {SUBSCRIPTION_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`admin.packages.${type}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={field("status")}>{t("admin.packages.status")}</label>
          <select
            id={field("status")}
            className="select"
            value={form.status}
            onChange={(e) => set("status", e.target.value as PackageForm["status"])}
          >
            <option value="active">{t("admin.packages.active")}</option>
            <option value="inactive">{t("admin.packages.inactive")}</option>
          </select>
        </div>
        <div className="field admin-form-grid__wide">
          <label htmlFor={field("description")}>{t("admin.packages.description")}</label>
          <textarea
            id={field("description")}
            className="input"
            rows={2}
            dir="auto"
            value={form.description}
            onChange={(e) => set("description", e.target.value)}
          />
        </div>
      </div>
      <label className="admin-check">
        <input type="checkbox" checked={form.auto_renew} onChange={(e) => set("auto_renew", e.target.checked)} />
        {t("admin.packages.autoRenew")} — {t("admin.packages.autoRenewHint")}
      </label>
      <FormActions onCancel={onCancel} busy={saving} label={t("admin.packages.save")} busyLabel={t("admin.common.saving")} />
    </form>
  );
}
