/**
 * SPEC §2 Wallet Packages: a card per package, a create/edit form, a summary; the three fallback
 * packages of SPEC §9 only when the list fails to load or is empty.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FALLBACK_PACKAGES } from "@storefront/shared";
import { useMoney } from "../../../hooks/useStorefront";
import { adminApi, type PackageForm } from "../adminApi";
import { useConfirmedDelete } from "../forms";
import { adminKeys, adminQueries, useAdminMutation, useAdminQuery } from "../queries";
import { formatNumber, Panel, useCan } from "../ui";
import { PackageCard, type ShownPackage } from "./packages/PackageCard";
import { PackageEditor, type PackageDraft } from "./packages/PackageEditor";

const EMPTY_FORM: PackageForm = {
  name: "",
  coins: 0,
  price: 0,
  subscription_type: "daily",
  auto_renew: true,
  description: "",
  status: "active",
};

function fallbackPackages(): ShownPackage[] {
  return FALLBACK_PACKAGES.map((p, i) => ({ ...p, id: `fallback-${i}`, status: "active", created_at: "", fallback: true }));
}

export default function Packages() {
  const { t } = useTranslation();
  const can = useCan();
  const { data, isFetching, isError } = useAdminQuery(adminQueries.packages(), t("admin.packages.loadFailed"));
  const [form, setForm] = useState<PackageDraft | null>(null);
  const remove = useAdminMutation((pkg: ShownPackage) => adminApi.deletePackage(pkg.id), [adminKeys.packages]);

  // Not while a read is on its way: the fallback stands only for a list that failed or is empty.
  const useFallback = !isFetching && (isError || (data?.length ?? 0) === 0);
  const shown: ShownPackage[] = useFallback ? fallbackPackages() : (data ?? []);

  const deletion = useConfirmedDelete<ShownPackage>({
    remove: remove.mutateAsync,
    title: t("admin.packages.deleteTitle"),
    message: (pkg) => t("admin.packages.deleteConfirm", { name: pkg?.name ?? "" }),
    deleted: t("admin.packages.deleted"),
    failed: t("admin.packages.deleteFailed"),
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
        {form && <PackageEditor key={form.id ?? "new"} initial={form} onDone={() => setForm(null)} />}
        <div className="admin-package-grid" data-testid="package-cards">
          {shown.map((p) => (
            <PackageCard
              key={p.id}
              pkg={p}
              manage={can("packages:manage")}
              onEdit={() => {
                const { id, name, coins, price, subscription_type, auto_renew, description, status } = p;
                setForm({ id, name, coins, price, subscription_type, auto_renew, description, status });
              }}
              onDelete={() => deletion.ask(p)}
            />
          ))}
        </div>
      </Panel>
      <PackageSummary packages={shown} />
      {deletion.dialog}
    </div>
  );
}

function PackageSummary({ packages }: { packages: ShownPackage[] }) {
  const { t, i18n } = useTranslation();
  const toMoney = useMoney();
  const n = (value: number) => formatNumber(value, i18n.language);
  const figures = [
    ["count", n(packages.length)],
    [
      "totalValue",
      toMoney(
        packages.reduce((sum, p) => sum + p.price, 0),
        2,
      ),
    ],
    ["totalCoins", n(packages.reduce((sum, p) => sum + p.coins, 0))],
    ["autoRenewPlans", n(packages.filter((p) => p.auto_renew).length)],
  ] as const;
  return (
    <Panel title={t("admin.packages.summary")}>
      <dl className="admin-summary" data-testid="package-summary">
        {figures.map(([key, value]) => (
          <div key={key}>
            <dt>{t(`admin.packages.${key}`)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}
