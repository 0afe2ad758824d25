/** The audit log for super admins: who changed what, before and after, when. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { adminQueries, useAdminQuery } from "../queries";
import { formatDate, Pager, Panel, Table } from "../ui";

const PAGE_SIZE = 20;

function show(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The fields an action changed, as "field: before → after" lines instead of two JSON dumps. */
function changedFields(before: unknown, after: unknown): { field: string; before: string; after: string }[] {
  if (!isRecord(before) || !isRecord(after)) {
    return show(before) === show(after) ? [] : [{ field: "", before: show(before), after: show(after) }];
  }
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .map((field) => ({ field, before: show(before[field]), after: show(after[field]) }))
    .filter((change) => change.before !== change.after);
}

function Changes({ before, after }: { before: unknown; after: unknown }) {
  const changes = changedFields(before, after);
  if (!changes.length) return <span className="admin-muted">—</span>;
  return (
    <dl className="admin-diff" dir="ltr" translate="no">
      {changes.map((c) => (
        <div key={c.field} className="admin-diff__row">
          {c.field && <dt>{c.field}</dt>}
          <dd>
            <del>{c.before}</del> <span aria-hidden="true">→</span> <ins>{c.after}</ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export default function AuditLog() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const { data } = useAdminQuery(adminQueries.audit(page, PAGE_SIZE), t("admin.audit.loadFailed"), { keepPrevious: true });
  return (
    <Panel title={t("admin.audit.title")}>
      <Table
        testId="audit-table"
        headers={[
          t("admin.audit.when"),
          t("admin.audit.admin"),
          t("admin.audit.action"),
          t("admin.audit.target"),
          t("admin.audit.changes"),
        ]}
        rows={data?.logs}
        empty={t("admin.audit.empty")}
      >
        {(entry) => (
          <tr key={entry.id}>
            <td className="admin-nowrap">{formatDate(entry.created_at, i18n.language)}</td>
            <td>
              <span dir="auto">{entry.admin.username}</span> <small>({t(`admin.roles.${entry.admin.role}`)})</small>
            </td>
            <td className="admin-mono" translate="no">
              {entry.action}
            </td>
            <td className="admin-mono" translate="no">
              {entry.target_type} {entry.target_id}
            </td>
            <td>
              <Changes before={entry.before} after={entry.after} />
            </td>
          </tr>
        )}
      </Table>
      {data && <Pager page={data.page} pages={data.total_pages} onPage={setPage} />}
    </Panel>
  );
}
