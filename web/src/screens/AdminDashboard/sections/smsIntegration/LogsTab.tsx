/** SPEC §2 SMS Integration, Logs & Statistics tab: three views (logs, statistics, messages), filtered and paged. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LIMITS } from "@storefront/shared";
import { adminQueries, useAdminQuery } from "../../queries";
import { Panel, Tabs } from "../../ui";
import { LogFilters, NO_FILTERS, type LogFilterValues, type LogView } from "./LogFilters";
import { LogsTable, MessagesTable } from "./LogTables";
import { StatsView } from "./StatsView";

const VIEWS = ["logs", "stats", "messages"] as const;

export function LogsTab() {
  const { t } = useTranslation();
  const [view, setView] = useState<LogView>("logs");
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<LogFilterValues>(NO_FILTERS);
  const query = {
    action: view,
    page,
    limit: LIMITS.adminPageSize,
    log_action: view === "logs" ? filters.log_action : undefined,
    direction: view === "messages" ? filters.direction : undefined,
    user_id: filters.user_id.trim() || undefined,
    date_from: filters.date_from || undefined,
    date_to: filters.date_to || undefined,
  };
  const { data } = useAdminQuery(adminQueries.smsLogs(query), t("admin.smsIntegration.dataFailed"), {
    keepPrevious: true,
  });

  /** SPEC §2: changing a filter resets the page to 1. */
  const filter = <K extends keyof LogFilterValues>(key: K, value: LogFilterValues[K]) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setPage(1);
  };

  // While the next view loads, the last view's answer is not drawn as the new one.
  const payload = data?.action === view ? data : null;
  return (
    <Panel title={t("admin.smsIntegration.tabLogs")}>
      <Tabs
        tabs={VIEWS}
        current={view}
        onSelect={(v) => {
          setView(v);
          setPage(1);
        }}
        label={(v) => t(`admin.smsIntegration.${v}`)}
        small
      />
      <LogFilters view={view} filters={filters} onFilter={filter} />
      {payload?.action === "logs" ? <LogsTable data={payload.data} onPage={setPage} /> : null}
      {payload?.action === "messages" ? <MessagesTable data={payload.data} onPage={setPage} /> : null}
      {payload?.action === "stats" ? <StatsView stats={payload.data} /> : null}
    </Panel>
  );
}
