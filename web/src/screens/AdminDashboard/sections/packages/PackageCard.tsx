/** One wallet package as a card: plan, coins, price and price per 1K coins, with Edit and Delete. */
import { useTranslation } from "react-i18next";
import type { WalletPackage } from "@storefront/shared";
import { useMoney } from "../../../../hooks/useStorefront";
import { formatNumber } from "../../ui";

/** A listed package; a SPEC §9 fallback one is shown but cannot be edited. */
export type ShownPackage = WalletPackage & { fallback?: boolean };

export function PackageCard({
  pkg: p,
  manage,
  onEdit,
  onDelete,
}: {
  pkg: ShownPackage;
  manage: boolean;
  onEdit(): void;
  onDelete(): void;
}) {
  const { t, i18n } = useTranslation();
  const toMoney = useMoney();
  return (
    <article className="card admin-package" data-testid="package-card">
      <header>
        <h3 dir="auto">{p.name}</h3>
        <div className="admin-badges">
          <span className="admin-badge">{t(`admin.packages.${p.subscription_type}`)}</span>
          {p.auto_renew && <span className="admin-badge admin-badge--ok">{t("admin.packages.autoRenew")}</span>}
          {p.status === "inactive" && <span className="admin-badge admin-badge--off">{t("admin.packages.inactive")}</span>}
        </div>
      </header>
      <p className="admin-package__coins">
        {formatNumber(p.coins, i18n.language)} <small>{t("admin.packages.coinsUnit")}</small>
      </p>
      {/* SPEC §9: prices to 2 decimals, the price per 1K coins to 3. */}
      <p className="admin-package__price">{toMoney(p.price, 2)}</p>
      <p className="admin-muted">
        {t("admin.packages.perK", { price: p.coins > 0 ? toMoney((p.price / p.coins) * 1000, 3) : "—" })}
      </p>
      {p.description && <p dir="auto">{p.description}</p>}
      {!p.fallback && manage && (
        <footer className="admin-actions">
          <button type="button" className="btn btn--secondary btn--small" onClick={onEdit}>
            {t("admin.packages.edit")}
          </button>
          <button type="button" className="btn btn--danger btn--small" onClick={onDelete}>
            {t("admin.packages.delete")}
          </button>
        </footer>
      )}
    </article>
  );
}
