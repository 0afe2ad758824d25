/** A modal confirm built on <dialog>: focus is trapped by the browser and Escape cancels. */
import { useEffect, useId, useRef, type RefObject } from "react";
import { useTranslation } from "react-i18next";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** A ref for a <dialog> shown as a modal while `open` is true and closed otherwise. */
export function useModalDialog(open: boolean): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return ref;
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel,
  danger,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const ref = useModalDialog(open);
  const titleId = useId();
  const messageId = useId();

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <p id={messageId} className="dialog__message">
        {message}
      </p>
      <div className="dialog__actions">
        <button type="button" className="btn btn--secondary" onClick={onCancel}>
          {cancelLabel ?? t("common.cancel")}
        </button>
        <button type="button" className={danger ? "btn btn--danger" : "btn btn--primary"} onClick={onConfirm} autoFocus>
          {confirmLabel ?? t("common.confirm")}
        </button>
      </div>
    </dialog>
  );
}
