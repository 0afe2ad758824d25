/** The Logs & Statistics tab's two paged tables: the SMS log and the messages sent and received. */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Paged, SmsLogRow, SmsMessageRow } from "../../adminApi";
import { formatDate, Pager, Table } from "../../ui";

function prettyDetails(details: string): string {
  try {
    return JSON.stringify(JSON.parse(details), null, 2);
  } catch {
    return details;
  }
}

/** A page of rows: the total above, the pager below. */
function PageOf({ data, onPage, children }: { data: Paged; onPage(page: number): void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="admin-muted">{t("admin.smsIntegration.total", { count: data.total })}</p>
      {children}
      <Pager page={data.page} pages={data.total_pages} onPage={onPage} />
    </>
  );
}

export function LogsTable({ data, onPage }: { data: { logs: SmsLogRow[] } & Paged; onPage(page: number): void }) {
  const { t, i18n } = useTranslation();
  return (
    <PageOf data={data} onPage={onPage}>
      <Table
        testId="sms-logs-table"
        headers={[
          t("admin.smsIntegration.date"),
          t("admin.smsIntegration.filterAction"),
          t("admin.smsIntegration.user"),
          t("admin.users.phone"),
          t("admin.smsIntegration.details"),
        ]}
        rows={data.logs}
        empty={t("admin.smsIntegration.noLogs")}
      >
        {(log) => (
          <tr key={log.id}>
            <td>{formatDate(log.created_at, i18n.language)}</td>
            <td translate="no">{log.action}</td>
            <td dir="auto">{log.user_name}</td>
            <td dir="ltr">{log.phone}</td>
            <td>
              <pre className="admin-pre" dir="ltr">
                {prettyDetails(log.details)}
              </pre>
            </td>
          </tr>
        )}
      </Table>
    </PageOf>
  );
}

export function MessagesTable({ data, onPage }: { data: { messages: SmsMessageRow[] } & Paged; onPage(page: number): void }) {
  const { t, i18n } = useTranslation();
  return (
    <PageOf data={data} onPage={onPage}>
      <Table
        testId="sms-messages-table"
        headers={[
          t("admin.smsIntegration.date"),
          t("admin.smsIntegration.direction"),
          t("admin.smsIntegration.user"),
          t("admin.users.phone"),
          t("admin.smsIntegration.message"),
          t("admin.smsIntegration.gatewayResponse"),
        ]}
        rows={data.messages}
        empty={t("admin.smsIntegration.noMessages")}
      >
        {(m) => (
          <tr key={m.id}>
            <td>{formatDate(m.created_at, i18n.language)}</td>
            <td>{t(`admin.smsIntegration.${m.direction}`)}</td>
            <td dir="auto">{m.user_name}</td>
            <td dir="ltr">{m.phone}</td>
            <td dir="auto">{m.message}</td>
            <td className="admin-break" translate="no">
              {m.gateway_response}
            </td>
          </tr>
        )}
      </Table>
    </PageOf>
  );
}
