/**
 * Toasts of SPEC §4: success, error, warning, info; shown for a duration (default 4 s), then a
 * 300 ms slide-out before removal. Announced to screen readers through a live region.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { TOAST_MS } from "@storefront/shared";
import "./Toasts.css";

export type ToastType = "success" | "error" | "warning" | "info";

interface Toast {
  id: number;
  type: ToastType;
  message: string;
  leaving: boolean;
}

/** Each call returns the toast's id, for `dismiss`. */
export interface ToastApi {
  show(message: string, type?: ToastType, durationMs?: number): number;
  success(message: string, durationMs?: number): number;
  error(message: string, durationMs?: number): number;
  warning(message: string, durationMs?: number): number;
  info(message: string, durationMs?: number): number;
  /** Slides a toast out before its time (nothing if it has gone already). */
  dismiss(id: number): void;
}

const ToastContext = createContext<ToastApi | null>(null);
const ICONS: Record<ToastType, string> = { success: "✓", error: "✕", warning: "!", info: "i" };

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const later = useCallback((fn: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      fn();
    }, ms);
    timers.current.add(timer);
  }, []);

  const dismiss = useCallback(
    (id: number) => {
      setToasts((all) => all.map((toast) => (toast.id === id ? { ...toast, leaving: true } : toast)));
      later(() => setToasts((all) => all.filter((toast) => toast.id !== id)), TOAST_MS.slideOut);
    },
    [later],
  );

  const show = useCallback(
    (message: string, type: ToastType = "info", durationMs: number = TOAST_MS.default) => {
      const id = nextId.current++;
      setToasts((all) => [...all, { id, type, message, leaving: false }]);
      later(() => dismiss(id), durationMs);
      return id;
    },
    [dismiss, later],
  );

  const api = useMemo<ToastApi>(
    () => ({
      show,
      success: (m, d) => show(m, "success", d),
      error: (m, d) => show(m, "error", d ?? TOAST_MS.error),
      warning: (m, d) => show(m, "warning", d),
      info: (m, d) => show(m, "info", d),
      dismiss,
    }),
    [show, dismiss],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" role="status" aria-live="polite" aria-label={t("common.notifications")}>
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast toast--${toast.type}${toast.leaving ? " toast--leaving" : ""}`}
            data-type={toast.type}
          >
            <span className="toast__icon" aria-hidden="true">
              {ICONS[toast.type]}
            </span>
            <span className="toast__message">{toast.message}</span>
            <button type="button" className="toast__close" onClick={() => dismiss(toast.id)} aria-label={t("common.dismiss")}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast outside ToastProvider");
  return api;
}
