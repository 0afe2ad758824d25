/**
 * The Queues section: counts per queue, jobs per minute and duration p50/p95, live from the
 * "queues:stats" push to the admins room (polling every 10 s when the socket is down); failed
 * jobs with their error and retry / remove for roles with queues:manage; Bull Board for depth.
 */
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueueStat, ServerEvents } from "@storefront/shared";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { useToast } from "../../../components/Toasts";
import { adminApi } from "../adminApi";
import { Chart } from "../Chart";
import { errorText, formatDate, formatNumber, Panel, Table, useCan, useLoad } from "../ui";
import { localeOf } from "../../../lib/locale";
import { SOCKET_OPTIONS } from "../../../socket/options";

const POLL_MS = 10_000;
/** Points of the throughput-over-time chart kept in the page (one per push or poll). */
const HISTORY_POINTS = 60;
const STATES = ["waiting", "active", "completed", "failed", "delayed"] as const;

/** The numbers of a "queues:stats" push in the shape of the HTTP answer. */
function fromPush(payload: ServerEvents["queues:stats"]): QueueStat[] {
  return Object.entries(payload.queues).map(([name, row]) => ({
    name,
    counts: {
      waiting: row.waiting ?? 0,
      active: row.active ?? 0,
      completed: row.completed ?? 0,
      failed: row.failed ?? 0,
      delayed: row.delayed ?? 0,
    },
    jobs_per_minute: row.jobs_per_minute ?? 0,
    duration_p50_ms: row.duration_p50_ms ?? null,
    duration_p95_ms: row.duration_p95_ms ?? null,
    paused: row.paused === 1,
  }));
}

/** A socket of its own, so the admins-room push arrives whatever the subscriber app's socket listens to. */
function useQueuePush(onStats: (stats: QueueStat[]) => void): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => {
    let closed = false;
    let close = () => {};
    void import("socket.io-client").then(({ io }) => {
      if (closed) return;
      const socket = io(SOCKET_OPTIONS);
      socket.on("connect", () => setLive(true));
      socket.on("disconnect", () => setLive(false));
      socket.on("queues:stats", (payload: ServerEvents["queues:stats"]) => onStats(fromPush(payload)));
      close = () => socket.disconnect();
    });
    return () => {
      closed = true;
      close();
    };
  }, [onStats]);
  return live;
}

const load = () => adminApi.queues();

export default function Queues() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const can = useCan();
  const { data, reload } = useLoad(load, t("admin.queues.loadFailed"));
  const [stats, setStats] = useState<QueueStat[] | null>(null);
  const [history, setHistory] = useState<{ time: string; perMinute: number }[]>([]);
  const [removing, setRemoving] = useState<{ queue: string; id: string } | null>(null);
  const live = useQueuePush(useCallback((next: QueueStat[]) => setStats(next), []));
  const n = (value: number) => formatNumber(value, i18n.language);
  const ms = (value: number | null) => (value === null ? "—" : t("admin.queues.ms", { n: n(Math.round(value)) }));

  useEffect(() => {
    if (data) setStats(data.queues);
  }, [data]);
  useEffect(() => {
    if (!stats) return;
    const point = {
      time: new Date().toLocaleTimeString(localeOf(i18n.language), { hour12: false }),
      perMinute: stats.reduce((sum, q) => sum + q.jobs_per_minute, 0),
    };
    setHistory((points) => [...points, point].slice(-HISTORY_POINTS));
  }, [stats, i18n.language]);
  useEffect(() => {
    if (live) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [live, reload]);

  async function act(queue: string, id: string, action: "retry" | "remove") {
    setRemoving(null);
    try {
      await adminApi.jobAction(queue, id, action);
      toast.success(t(action === "retry" ? "admin.queues.retried" : "admin.queues.removed"));
    } catch (caught) {
      toast.error(errorText(caught, t("admin.queues.actionFailed")));
    }
    reload();
  }

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
      <Panel title={t("admin.queues.failedJobs")}>
        <Table
          testId="failed-jobs-table"
          headers={[
            t("admin.queues.queue"),
            t("admin.queues.job"),
            t("admin.queues.error"),
            t("admin.queues.attempts"),
            t("admin.queues.failedAt"),
            ...(can("queues:manage") ? [t("admin.users.actions")] : []),
          ]}
          rows={data?.failed}
          empty={t("admin.queues.noFailed")}
        >
          {(job) => (
            <tr key={`${job.queue}:${job.id}`} data-job-id={job.id}>
              <td translate="no" dir="ltr">
                {job.queue}
              </td>
              <td className="admin-mono" translate="no">
                {job.name} #{job.id}
              </td>
              <td className="admin-break" dir="auto">
                {job.error}
              </td>
              <td>{job.attempts}</td>
              <td>{formatDate(job.failed_at, i18n.language)}</td>
              {can("queues:manage") && (
                <td className="admin-actions">
                  <button
                    type="button"
                    className="btn btn--secondary btn--small"
                    onClick={() => void act(job.queue, job.id, "retry")}
                  >
                    {t("admin.queues.retry")}
                  </button>
                  <button
                    type="button"
                    className="btn btn--danger btn--small"
                    onClick={() => setRemoving({ queue: job.queue, id: job.id })}
                  >
                    {t("admin.queues.remove")}
                  </button>
                </td>
              )}
            </tr>
          )}
        </Table>
      </Panel>
      <ConfirmDialog
        open={removing !== null}
        title={t("admin.queues.removeTitle")}
        message={t("admin.queues.removeConfirm")}
        danger
        onConfirm={() => removing && void act(removing.queue, removing.id, "remove")}
        onCancel={() => setRemoving(null)}
      />
    </div>
  );
}
