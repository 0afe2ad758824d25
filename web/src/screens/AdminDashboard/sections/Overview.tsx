/** SPEC §2 Dashboard section: six cards, usage by feature (30 days), top users, and two charts. */
import { useTranslation } from "react-i18next";
import { STAT_ICONS } from "../../../components/toolIcons";
import { Chart } from "../Chart";
import { adminQueries, useAdminQuery } from "../queries";
import { formatNumber, Panel, Table } from "../ui";

export default function Overview() {
  const { t, i18n } = useTranslation();
  const { data: stats, isFetching, refetch } = useAdminQuery(adminQueries.dashboard(), t("admin.dashboard.loadFailed"));
  const n = (value: number) => formatNumber(value, i18n.language);
  const featureName = (feature: string) => t(`admin.walletConfig.features.${feature}`, { defaultValue: feature.toUpperCase() });

  const cards = stats
    ? ([
        ["totalUsers", stats.total_users],
        ["activeUsers", stats.active_users],
        ["tokensSpent", stats.total_tokens_spent],
        ["smsSent", stats.total_sms],
        ["images", stats.total_images],
        ["conversations", stats.total_conversations],
      ] as const)
    : [];

  return (
    <div className="admin-stack">
      <div className="admin-toolbar">
        <button type="button" className="btn btn--secondary btn--small" onClick={() => void refetch()} disabled={isFetching}>
          {t("admin.common.refresh")}
        </button>
      </div>
      <p className="admin-muted" data-testid="tokens-note">
        {t("admin.dashboard.tokensNote")}
      </p>
      <div className="admin-cards" data-testid="dashboard-cards">
        {cards.map(([key, value]) => {
          const Icon = STAT_ICONS[key];
          return (
            <div key={key} className="card admin-stat">
              <span className="admin-stat__icon" aria-hidden="true">
                <Icon size={22} />
              </span>
              <span className="admin-stat__label">{t(`admin.dashboard.${key}`)}</span>
              <strong className="admin-stat__value">{n(value)}</strong>
            </div>
          );
        })}
      </div>

      {stats && (
        <div className="admin-charts">
          <Panel title={t("admin.dashboard.chartUsage")}>
            {stats.usage_by_feature.length === 0 ? (
              <p className="empty-state">{t("admin.dashboard.noUsage")}</p>
            ) : (
              <Chart
                kind="bar"
                data={stats.usage_by_feature.map((f) => ({ ...f, feature: featureName(f.feature_type) }))}
                category="feature"
                series={[{ key: "total_tokens", name: t("admin.dashboard.totalTokens"), color: "#4f46e5" }]}
                height={240}
                label={t("admin.dashboard.chartUsage")}
                nameEvery
              />
            )}
          </Panel>
          <Panel title={t("admin.dashboard.chartDaily")}>
            <Chart
              kind="line"
              data={stats.daily.map((d) => ({ ...d, day: d.date.slice(5) }))}
              category="day"
              series={[{ key: "coins_spent", name: t("admin.dashboard.coinsSpent"), color: "#0ea5e9" }]}
              height={240}
              label={t("admin.dashboard.chartDaily")}
            />
          </Panel>
        </div>
      )}

      <Panel title={t("admin.dashboard.usageTitle")}>
        <Table
          headers={[t("admin.dashboard.feature"), t("admin.dashboard.count"), t("admin.dashboard.totalTokens")]}
          rows={stats?.usage_by_feature}
          empty={t("admin.dashboard.noUsage")}
        >
          {(f) => (
            <tr key={f.feature_type}>
              <td>{featureName(f.feature_type)}</td>
              <td>{n(f.count)}</td>
              <td>{n(f.total_tokens)}</td>
            </tr>
          )}
        </Table>
      </Panel>

      <Panel title={t("admin.dashboard.topTitle")}>
        <Table
          headers={[
            t("admin.dashboard.phone"),
            t("admin.dashboard.coins"),
            t("admin.dashboard.totalSpent"),
            t("admin.dashboard.tier"),
          ]}
          rows={stats?.top_users}
          empty={t("admin.dashboard.noUsers")}
        >
          {(u) => (
            <tr key={u.id}>
              <td dir="ltr">{u.phone}</td>
              <td>{n(u.coins)}</td>
              <td>{n(u.total_spent)}</td>
              <td>{u.tier}</td>
            </tr>
          )}
        </Table>
      </Panel>
    </div>
  );
}
