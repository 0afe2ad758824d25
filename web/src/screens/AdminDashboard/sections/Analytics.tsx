/**
 * Analytics (stats:view): per day of a chosen range, coins spent per feature, active users,
 * signups, packages sold and revenue, redemptions, and charged jobs completed and failed; a chart
 * of the coins spent, the table of every figure, and the same rows as CSV.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiUrl } from "../../../api/client";
import { Chart } from "../Chart";
import { adminQueries, useAdminQuery } from "../queries";
import { formatNumber, Panel, Table } from "../ui";
import { useMoney } from "../../../hooks/useStorefront";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const sum = (values: Record<string, number | { completed: number; failed: number }>, pick?: "completed" | "failed") =>
  Object.values(values).reduce<number>((total, v) => total + (typeof v === "number" ? v : pick ? v[pick] : 0), 0);

export default function Analytics() {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState({ from: day(-29), to: day(0) });
  const { data } = useAdminQuery(adminQueries.analytics(range.from, range.to), t("admin.analytics.loadFailed"), {
    keepPrevious: true,
  });
  const n = (value: number) => formatNumber(value, i18n.language);
  const money = useMoney();
  const days = data?.days ?? [];
  const totals = {
    spent: days.reduce((s, d) => s + sum(d.coins_spent), 0),
    signups: days.reduce((s, d) => s + d.new_signups, 0),
    revenue: days.reduce((s, d) => s + d.package_revenue, 0),
    redemptions: days.reduce((s, d) => s + d.redemptions, 0),
  };

  return (
    <div className="admin-stack">
      <Panel
        title={t("admin.analytics.title")}
        actions={
          <a
            className="btn btn--secondary btn--small"
            href={apiUrl("admin/analytics.php", { ...range, format: "csv" })}
            download={`analytics-${range.from}-${range.to}.csv`}
          >
            {t("admin.analytics.csv")}
          </a>
        }
      >
        <form className="admin-analytics__range" onSubmit={(e) => e.preventDefault()}>
          {(["from", "to"] as const).map((key) => (
            <div className="field" key={key}>
              <label htmlFor={`analytics-${key}`}>{t(`admin.analytics.${key}`)}</label>
              <input
                id={`analytics-${key}`}
                className="input"
                type="date"
                value={range[key]}
                max={day(0)}
                onChange={(e) => e.target.value && setRange((r) => ({ ...r, [key]: e.target.value }))}
              />
            </div>
          ))}
        </form>
        <div className="admin-cards" data-testid="analytics-totals">
          {(
            [
              ["coinsSpent", n(totals.spent)],
              ["signups", n(totals.signups)],
              ["revenue", money(totals.revenue)],
              ["redemptions", n(totals.redemptions)],
            ] as const
          ).map(([key, value]) => (
            <div key={key} className="card admin-stat">
              <span className="admin-stat__label">{t(`admin.analytics.${key}`)}</span>
              <strong className="admin-stat__value">{value}</strong>
            </div>
          ))}
        </div>
        <Chart
          kind="bar"
          data={days.map((d) => ({ day: d.date.slice(5), coins: sum(d.coins_spent) }))}
          category="day"
          series={[{ key: "coins", name: t("admin.analytics.coinsSpent"), color: "#4f46e5" }]}
          height={220}
          label={t("admin.analytics.chart")}
        />
      </Panel>
      <Panel title={t("admin.analytics.perDay")}>
        <Table
          testId="analytics-table"
          headers={[
            t("admin.analytics.date"),
            t("admin.analytics.coinsSpent"),
            t("admin.analytics.active"),
            t("admin.analytics.signups"),
            t("admin.analytics.packages"),
            t("admin.analytics.revenue"),
            t("admin.analytics.redemptions"),
            t("admin.analytics.jobsDone"),
            t("admin.analytics.jobsFailed"),
          ]}
          rows={[...days].reverse()}
          empty={t("admin.analytics.none")}
        >
          {(d) => (
            <tr key={d.date}>
              <td dir="ltr">{d.date}</td>
              <td
                title={Object.entries(d.coins_spent)
                  .map(([f, c]) => `${t(`admin.walletConfig.features.${f}`, { defaultValue: f })}: ${n(c)}`)
                  .join(" · ")}
              >
                {n(sum(d.coins_spent))}
              </td>
              <td>{n(d.active_users)}</td>
              <td>{n(d.new_signups)}</td>
              <td>{n(d.packages_sold)}</td>
              <td>{money(d.package_revenue)}</td>
              <td>{n(d.redemptions)}</td>
              <td>{n(sum(d.jobs, "completed"))}</td>
              <td>{n(sum(d.jobs, "failed"))}</td>
            </tr>
          )}
        </Table>
      </Panel>
    </div>
  );
}
