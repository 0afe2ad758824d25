/**
 * The Queues section: counts per queue, jobs per minute and duration p50/p95, live from the
 * "queues:stats" push to the admins room (polling every 10 s when the socket is down); failed
 * jobs with their error and retry / remove for roles with queues:manage; Bull Board for depth.
 */
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueueStat } from "@storefront/shared";
import { localeOf } from "../../../lib/locale";
import { Chart } from "../Chart";
import { adminQueries, useAdminQuery } from "../queries";
import { formatNumber, Panel, Table } from "../ui";
import { FailedJobs } from "./queues/FailedJobs";
import { useQueuePush } from "./queues/useQueuePush";

const POLL_MS = 10_000;
/** Points of the throughput-over-time chart kept in the page (one per push or poll). */
const HISTORY_POINTS = 60;
const STATES = ["waiting", "active", "completed", "failed", "delayed"] as const;

export default function Queues() {
  const { t, i18n } = useTranslation();
  const [stats, setStats] = useState<QueueStat[] | null>(null);
  const [history, setHistory] = useState<{ time: string; perMinute: number }[]>([]);
  const live = useQueuePush(useCallback((next: QueueStat[]) => setStats(next), []));
  // Polled while the socket is down.
  const { data, dataUpdatedAt } = useAdminQuery(adminQueries.queues(), t("admin.queues.loadFailed"), {
    refetchInterval: live ? false : POLL_MS,
  });
  const n = (value: number) => formatNumber(value, i18n.language);
  const ms = (value: number | null) => (value === null ? "—" : t("admin.queues.ms", { n: n(Math.round(value)) }));

  // Each answer counts as a point of the chart, even one equal to the last (so keyed on when it came).
  useEffect(() => {
    if (data) setStats(data.queues);
  }, [data, dataUpdatedAt]);
  useEffect(() => {
    if (!stats) return;
    const point = {
      time: new Date().toLocaleTimeString(localeOf(i18n.language), { hour12: false }),
      perMinute: stats.reduce((sum, q) => sum + q.jobs_per_minute, 0),
    };
    setHistory((points) => [...points, point].slice(-HISTORY_POINTS));
  }, [stats, i18n.language]);
  const rows = stats ?? [];
  return (
    <div className="admin-stack">
      <Panel
        title={t("admin.queues.title")}
        actions={
          <>
            <span className={`admin-badge ${live ? "admin-badge--ok" : ""}`} data-testid="queues-live">
              {live ? t("admin.queues.live") : t("admin.queues.polling")}
            </span>
            <a className="btn btn--secondary btn--small" href="/api/admin/queues/board/" target="_blank" rel="noreferrer">
              {t("admin.queues.board")}
            </a>
          </>
        }
      >
        <Table
          testId="queues-table"
          headers={[
            t("admin.queues.queue"),
            ...STATES.map((s) => t(`admin.queues.${s}`)),
            t("admin.queues.perMinute"),
            t("admin.queues.p50"),
            t("admin.queues.p95"),
          ]}
          rows={rows}
        >
          {(q) => (
            <tr key={q.name} data-queue={q.name}>
              <th scope="row" translate="no" dir="ltr">
                {q.name}
              </th>
              {STATES.map((s) => (
                <td key={s} data-state={s}>
                  {n(q.counts[s])}
                </td>
              ))}
              <td>{n(q.jobs_per_minute)}</td>
              <td>{ms(q.duration_p50_ms)}</td>
              <td>{ms(q.duration_p95_ms)}</td>
            </tr>
          )}
        </Table>
        {rows.length > 0 && (
          <Chart
            kind="bar"
            data={rows.map((q) => ({ name: q.name, perMinute: q.jobs_per_minute, waiting: q.counts.waiting }))}
            category="name"
            series={[
              { key: "perMinute", name: t("admin.queues.perMinute"), color: "#4f46e5" },
              { key: "waiting", name: t("admin.queues.waiting"), color: "#f59e0b" },
            ]}
            height={220}
            label={t("admin.queues.throughput")}
            legend
          />
        )}
      </Panel>
      {history.length > 1 && (
        <Panel title={t("admin.queues.overTime")}>
          <Chart
            kind="line"
            data={history}
            category="time"
            series={[{ key: "perMinute", name: t("admin.queues.perMinute"), color: "#0ea5e9" }]}
            height={200}
            label={t("admin.queues.overTime")}
          />
        </Panel>
      )}
      <FailedJobs jobs={data?.failed} />
    </div>
  );
}
