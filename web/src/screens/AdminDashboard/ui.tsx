/** Small pieces the admin sections share: panel, pager, table, permission check, number and date formats. */
import { useLayoutEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { roleAllows, type AdminPermission } from "@storefront/shared";
import { errorMessage } from "../../api/errors";
import { localeOf } from "../../lib/locale";
import { useAdmin } from "./context";

export function Panel({ title, actions, children }: { title?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="card admin-panel">
      {(title || actions) && (
        <div className="admin-panel__head">
          {title && <h2 className="admin-panel__title">{title}</h2>}
          {actions && <div className="admin-panel__actions">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage(page: number): void }) {
  const { t } = useTranslation();
  return (
    <div className="admin-pager">
      <button type="button" className="btn btn--secondary btn--small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("admin.common.prev")}
      </button>
      <span>{t("admin.common.pageOf", { page, pages })}</span>
      <button type="button" className="btn btn--secondary btn--small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t("admin.common.next")}
      </button>
    </div>
  );
}

/**
 * An admin data table: one header row, then a row per item drawn by `children` (which keys its
 * rows). With `empty`, a loaded empty list shows that text in one row; nothing shows while loading.
 */
export function Table<T>({
  testId,
  headers,
  rows,
  empty,
  children,
}: {
  testId?: string;
  headers: ReactNode[];
  rows: readonly T[] | null | undefined;
  empty?: string;
  children(row: T, index: number): ReactNode;
}) {
  const table = useRef<HTMLTableElement>(null);
  // On a phone each row is a card of labelled lines (AdminDashboard.css): every cell carries its
  // column's name. Set here, after each render, so no section has to repeat its headers per cell.
  useLayoutEffect(() => {
    const names = [...(table.current?.tHead?.rows[0]?.cells ?? [])].map((th) => th.textContent?.trim() ?? "");
    for (const row of table.current?.tBodies[0]?.rows ?? []) {
      if (row.cells.length !== names.length) continue;
      [...row.cells].forEach((cell, i) => {
        if (names[i]) cell.dataset.label = names[i];
        else delete cell.dataset.label;
      });
    }
  });
  return (
    // Focusable, so a keyboard can scroll a table wider than the screen.
    <div className="admin-table-wrap" tabIndex={0}>
      <table ref={table} className="admin-table admin-table--cards" data-testid={testId}>
        <thead>
          <tr>
            {headers.map((header, i) => (
              <th scope="col" key={i}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty !== undefined && rows?.length === 0 && (
            <tr>
              <td colSpan={headers.length} className="admin-table__empty">
                <div>{empty}</div>
              </td>
            </tr>
          )}
          {rows?.map((row, i) => children(row, i))}
        </tbody>
      </table>
    </div>
  );
}

/** A row of tabs; the caller draws the current tab's panel. */
export function Tabs<T extends string>({
  tabs,
  current,
  onSelect,
  label,
  ariaLabel,
  small = false,
}: {
  tabs: readonly T[];
  current: T;
  onSelect(tab: NoInfer<T>): void;
  /** Each tab's text. */
  label(tab: NoInfer<T>): string;
  /** The name of the row of tabs. */
  ariaLabel?: string;
  small?: boolean;
}) {
  return (
    <div className={small ? "admin-tabs admin-tabs--small" : "admin-tabs"} role="tablist" aria-label={ariaLabel}>
      {tabs.map((tab) => (
        <button
          key={tab}
          type="button"
          role="tab"
          aria-selected={current === tab}
          className={`admin-tab${current === tab ? " is-current" : ""}`}
          onClick={() => onSelect(tab)}
        >
          {label(tab)}
        </button>
      ))}
    </div>
  );
}

/** Whether the signed-in administrator's role holds a permission (the server checks it again). */
export function useCan(): (permission: AdminPermission) => boolean {
  const { admin } = useAdmin();
  return (permission) => roleAllows(admin.role, permission);
}

/** The translated text of the server's error code, or the fallback (never the server's English text). */
export const errorText = errorMessage;

export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(localeOf(language)).format(value);
}

export function formatDate(iso: string | null, language: string): string {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}
