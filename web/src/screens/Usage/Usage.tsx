/**
 * My usage: every coin movement of the subscriber (charges, refunds, credits, purchases, renewals,
 * adjustments) with the feature, the coins, the balance after and the date; filters by feature and
 * dates, pages, and the same rows as a CSV download. Above them, the subscriber's spending limits.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { FEATURES, type Feature } from "@storefront/shared";
import { walletHistory, walletHistoryCsvUrl, type HistoryFilters } from "../../api/history";
import { InputField, SelectField } from "../../components/Form";
import { BackButton, PageHeader } from "../../components/Layout";
import { LanguageToggle } from "../../components/LanguageToggle";
import { PageLoading } from "../../components/Spinner";
import { WalletBadge } from "../../components/WalletBadge";
import { useFormat } from "../../hooks/useFormat";
import { SpendingLimits } from "./SpendingLimits";
import "./Usage.css";

const EMPTY: HistoryFilters = { feature: "", from: "", to: "" };

export default function Usage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [filters, setFilters] = useState<HistoryFilters>(EMPTY);
  const [page, setPage] = useState(1);
  const history = useQuery({
    queryKey: ["wallet-history", filters, page],
    queryFn: () => walletHistory(filters, page),
    placeholderData: keepPreviousData,
  });
  const set = (patch: Partial<HistoryFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const featureName = (feature: string | null) =>
    feature ? t(`admin.walletConfig.features.${feature}`, { defaultValue: feature }) : "—";
  const data = history.data;

  return (
    <div className="usage">
      <PageHeader
        title={t("usage.title")}
        start={<BackButton />}
        end={
          <>
            <LanguageToggle />
            <WalletBadge />
          </>
        }
      />
      <main id="main" className="usage__main">
        <SpendingLimits />
        <form className="card usage__filters" onSubmit={(e) => e.preventDefault()} aria-label={t("usage.filters")}>
          <SelectField<Feature | "">
            id="usage-feature"
            label={t("usage.feature")}
            value={filters.feature}
            options={[
              { value: "", label: t("usage.allFeatures") },
              ...FEATURES.map((f) => ({ value: f, label: featureName(f) })),
            ]}
            onChange={(feature) => set({ feature })}
          />
          <InputField
            id="usage-from"
            label={t("usage.from")}
            type="date"
            value={filters.from}
            onChange={(from) => set({ from })}
          />
          <InputField id="usage-to" label={t("usage.to")} type="date" value={filters.to} onChange={(to) => set({ to })} />
          <a className="btn btn--secondary usage__csv" href={walletHistoryCsvUrl(filters)} download="coin-history.csv">
            {t("usage.csv")}
          </a>
        </form>

        {history.isPending && <PageLoading />}
        {history.isError && (
          <p className="alert alert--error" role="alert">
            {t("usage.loadFailed")}
          </p>
        )}
        {data && data.entries.length === 0 && <p className="empty-state">{t("usage.none")}</p>}
        {data && data.entries.length > 0 && (
          <ol className="usage__list" data-testid="usage-list">
            {data.entries.map((e) => (
              <li key={e.id} className="card usage-row">
                <span className="usage-row__what">
                  <strong>{t(`usage.kinds.${e.kind}`)}</strong>
                  <span className="usage-row__feature">{featureName(e.feature)}</span>
                </span>
                <span className={e.amount < 0 ? "usage-row__coins usage-row__coins--out" : "usage-row__coins"} dir="ltr">
                  {e.amount < 0 ? "−" : "+"}
                  {format.number(Math.abs(e.amount))}
                </span>
                <span className="usage-row__detail">
                  {e.balance_after !== null && t("usage.balanceAfter", { coins: format.number(e.balance_after) })}
                  {e.reference && (
                    <span translate="no" dir="ltr" className="usage-row__job">
                      {e.reference.queue} #{e.reference.job_id.slice(-8)}
                    </span>
                  )}
                </span>
                <time className="usage-row__date" dateTime={e.date}>
                  {format.dateTime(e.date)}
                </time>
              </li>
            ))}
          </ol>
        )}
        {data && data.total_pages > 1 && (
          <nav className="usage__pager" aria-label={t("usage.pages")}>
            <button type="button" className="btn btn--secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              {t("usage.previous")}
            </button>
            <span>{t("usage.pageOf", { page: format.number(page), pages: format.number(data.total_pages) })}</span>
            <button
              type="button"
              className="btn btn--secondary"
              disabled={page >= data.total_pages}
              onClick={() => setPage((p) => p + 1)}
            >
              {t("usage.next")}
            </button>
          </nav>
        )}
      </main>
    </div>
  );
}
