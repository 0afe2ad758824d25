/** The pieces of the back office's forms: dialog, labelled field, Cancel/submit buttons, confirmed delete. */
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog, useModalDialog } from "../../components/ConfirmDialog";
import { useToast } from "../../components/Toasts";

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

/** A form's values and per-field errors; editing a field clears its error (it stays only while still wrong). */
export function useFormFields<F extends object>(initial: F) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof F, string>>>({});
  // From the latest state, not this render's: two changes before a render both count.
  const set = <K extends keyof F>(key: K, value: F[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    setErrors((current) => (current[key] ? { ...current, [key]: undefined } : current));
  };
  return { form, set, errors, setErrors };
}

/** A labelled field: its label, the control (which carries `id`), a hint and the field's error. */
export function Field({
  id,
  label,
  hint,
  error,
  wide = false,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  /** Spans the whole row of an .admin-form-grid. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={wide ? "field admin-form-grid__wide" : "field"}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint}
      {error && <span className="field-error">{error}</span>}
    </div>
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
 * item (a mutation that refreshes the list) and toasts `deleted` or `failed`.
 */
export function useConfirmedDelete<T>({
  remove,
  title,
  message,
  deleted,
  failed,
}: {
  remove(item: T): Promise<unknown>;
  title: string;
  /** The question; also rendered, with no item, while the dialog is closed. */
  message(item: T | null): string;
  deleted: string;
  failed: string;
}): { ask(item: T): void; dialog: ReactNode } {
  const toast = useToast();
  const [item, setItem] = useState<T | null>(null);

  async function confirm(target: T) {
    setItem(null);
    try {
      await remove(target);
      toast.success(deleted);
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
