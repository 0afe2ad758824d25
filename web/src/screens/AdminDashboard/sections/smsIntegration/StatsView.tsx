/** The Logs & Statistics tab's statistics: four figures and the top users. */
import { useTranslation } from "react-i18next";
import type { SmsStats } from "../../adminApi";
import { formatNumber, Table } from "../../ui";

export function StatsView({ stats }: { stats: SmsStats }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const basic = stats.basic_stats;
  if (!basic || (basic.total_logs === 0 && stats.top_users.length === 0)) {
    return <p className="empty-state">{t("admin.smsIntegration.noStats")}</p>;
  }
  return (
    <>
      <div className="admin-cards">
        {(["total_logs", "replies_sent", "unique_users", "unknown_users"] as const).map((key) => (
          <div key={key} className="card admin-stat">
            <span className="admin-stat__label">{t(`admin.smsIntegration.${key}`)}</span>
            <strong className="admin-stat__value">{n(basic[key])}</strong>
          </div>
        ))}
      </div>
      <h3 className="admin-subtitle">{t("admin.smsIntegration.topUsers")}</h3>
      <Table
        headers={[
          t("admin.smsIntegration.name"),
          t("admin.users.phone"),
          t("admin.smsIntegration.totalSms"),
          t("admin.smsIntegration.repliesReceived"),
        ]}
        rows={stats.top_users}
      >
        {(u) => (
          <tr key={u.phone}>
            <td dir="auto">{u.name}</td>
            <td dir="ltr">{u.phone}</td>
            <td>{n(u.total_sms)}</td>
            <td>{n(u.replies_received)}</td>
          </tr>
        )}
      </Table>
    </>
  );
}
