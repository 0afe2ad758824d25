/** The audit log for super admins: who changed what, before and after, when. */
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { adminApi } from "../adminApi";
import { formatDate, Pager, Panel, Table, useLoad } from "../ui";

const PAGE_SIZE = 20;

function show(value: unknown): string {
  return value === null || value === undefined ? "—" : JSON.stringify(value, null, 2);
}

export default function AuditLog() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const load = useCallback(() => adminApi.audit({ page, limit: PAGE_SIZE }), [page]);
  const { data } = useLoad(load, t("admin.audit.loadFailed"), String(page));
  return (
    <Panel title={t("admin.audit.title")}>
      <Table
        testId="audit-table"
        headers={[
          t("admin.audit.when"),
          t("admin.audit.admin"),
          t("admin.audit.action"),
          t("admin.audit.target"),
          t("admin.audit.before"),
          t("admin.audit.after"),
        ]}
        rows={data?.logs}
        empty={t("admin.audit.empty")}
      >
        {(entry) => (
          <tr key={entry.id}>
            <td>{formatDate(entry.created_at, i18n.language)}</td>
            <td>
              {entry.admin.username} <small>({t(`admin.roles.${entry.admin.role}`)})</small>
            </td>
            <td className="admin-mono">{entry.action}</td>
            <td className="admin-mono">
              {entry.target_type} {entry.target_id}
            </td>
            <td>
              <pre className="admin-pre" dir="ltr">
                {show(entry.before)}
              </pre>
            </td>
            <td>
              <pre className="admin-pre" dir="ltr">
                {show(entry.after)}
              </pre>
            </td>
          </tr>
        )}
      </Table>
      {data && <Pager page={data.page} pages={data.total_pages} onPage={setPage} />}
    </Panel>
  );
}
