/** Small pieces the admin sections share: pager, table, section card, load state. */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { roleAllows, type AdminPermission } from "@storefront/shared";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { ConfirmDialog, useModalDialog } from "../../components/ConfirmDialog";
import { useToast } from "../../components/Toasts";
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

/** Whether the signed-in administrator's role holds a permission (the server checks it again). */
export function useCan(): (permission: AdminPermission) => boolean {
  const { admin } = useAdmin();
  return (permission) => roleAllows(admin.role, permission);
}

/**
 * Loads data once and on `reload()`; a failure shows the section's SPEC §8 toast, and a 401
 * sends the administrator back to the login.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  failText: string,
  /** Loads again whenever this changes (page, filters). */
  key = "",
): { data: T | null; loading: boolean; failed: boolean; reload(): void } {
  const toast = useToast();
  const { sessionExpired } = useAdmin();
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  const failRef = useRef(failText);
  useEffect(() => {
    loadRef.current = load;
    failRef.current = failText;
  });
  useEffect(() => {
    let live = true;
    setLoading(true);
    loadRef.current().then(
      (value) => {
        if (!live) return;
        setData(value);
        setFailed(false);
        setLoading(false);
      },
      (error: unknown) => {
        if (!live) return;
        setFailed(true);
        setLoading(false);
        if (error instanceof ApiError && error.status === 401) sessionExpired();
        else toast.error(failRef.current);
      },
    );
    return () => {
      live = false;
    };
  }, [tick, key, toast, sessionExpired]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data, loading, failed, reload };
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

/** A modal form dialog on <dialog> (focus kept inside by the browser, Escape closes). */
export function Modal({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
}) {
  const ref = useModalDialog(open);
  return (
    <dialog
      ref={ref}
      className="dialog admin-modal"
      aria-label={title}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 className="dialog__title">{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}

/** An admin form's Cancel and submit buttons; the submit one shows `busyLabel` and is disabled while busy. */
export function FormActions({
  onCancel,
  busy,
  label,
  busyLabel,
}: {
  onCancel(): void;
  busy: boolean;
  label: string;
  busyLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="dialog__actions">
      <button type="button" className="btn btn--secondary" onClick={onCancel}>
        {t("admin.common.cancel")}
      </button>
      <button type="submit" className="btn btn--primary" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}

/**
 * Deleting a listed item after a confirmation: `ask(item)` opens `dialog`; confirming deletes the
 * item, toasts `deleted` or `failed`, and calls `onDeleted` (the section reloads) on success.
 */
export function useConfirmedDelete<T>({
  remove,
  title,
  message,
  deleted,
  failed,
  onDeleted,
}: {
  remove(item: T): Promise<unknown>;
  title: string;
  /** The question; also rendered, with no item, while the dialog is closed. */
  message(item: T | null): string;
  deleted: string;
  failed: string;
  onDeleted(): void;
}): { ask(item: T): void; dialog: ReactNode } {
  const toast = useToast();
  const [item, setItem] = useState<T | null>(null);

  async function confirm(target: T) {
    setItem(null);
    try {
      await remove(target);
      toast.success(deleted);
      onDeleted();
    } catch {
      toast.error(failed);
    }
  }

  const dialog = (
    <ConfirmDialog
      open={item !== null}
      title={title}
      message={message(item)}
      danger
      onConfirm={() => item && void confirm(item)}
      onCancel={() => setItem(null)}
    />
  );
  return { ask: (target) => setItem(target), dialog };
}
