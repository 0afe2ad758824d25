/** The Logs & Statistics tab's filters: log action or direction (by view), user, date range. */
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { SMS_LOG_ACTIONS } from "@storefront/shared";
import type { adminApi } from "../../adminApi";
import { Field } from "../../forms";

export type LogView = "logs" | "stats" | "messages";

type LogsQuery = Parameters<typeof adminApi.smsLogs>[0];
/** The filters as logs.php's query schema types them ("" for none). */
export type LogFilterValues = {
  [K in "log_action" | "direction" | "user_id" | "date_from" | "date_to"]-?: NonNullable<LogsQuery[K]>;
};

export const NO_FILTERS: LogFilterValues = { log_action: "", direction: "", user_id: "", date_from: "", date_to: "" };

export function LogFilters({
  view,
  filters,
  onFilter,
}: {
  view: LogView;
  filters: LogFilterValues;
  onFilter<K extends keyof LogFilterValues>(key: K, value: LogFilterValues[K]): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = (key: "user_id" | "date_from" | "date_to", label: string) => (
    <Field id={`${id}-${key}`} label={label}>
      <input
        id={`${id}-${key}`}
        className="input"
        {...(key === "user_id" ? { dir: "ltr" } : { type: "date" })}
        value={filters[key]}
        onChange={(e) => onFilter(key, e.target.value)}
      />
    </Field>
  );
  return (
    <div className="admin-filters">
      {view === "logs" && (
        <Field id={`${id}-action`} label={t("admin.smsIntegration.filterAction")}>
          <select
            id={`${id}-action`}
            className="select"
            value={filters.log_action}
            onChange={(e) => onFilter("log_action", e.target.value as LogFilterValues["log_action"])}
          >
            <option value="">{t("admin.smsIntegration.all")}</option>
            {SMS_LOG_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </Field>
      )}
      {view === "messages" && (
        <Field id={`${id}-direction`} label={t("admin.smsIntegration.direction")}>
          <select
            id={`${id}-direction`}
            className="select"
            value={filters.direction}
            onChange={(e) => onFilter("direction", e.target.value as LogFilterValues["direction"])}
          >
            <option value="">{t("admin.smsIntegration.all")}</option>
            <option value="inbound">{t("admin.smsIntegration.inbound")}</option>
            <option value="outbound">{t("admin.smsIntegration.outbound")}</option>
          </select>
        </Field>
      )}
      {input("user_id", t("admin.smsIntegration.userId"))}
      {input("date_from", t("admin.smsIntegration.from"))}
      {input("date_to", t("admin.smsIntegration.to"))}
    </div>
  );
}
