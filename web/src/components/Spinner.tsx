import { useTranslation } from "react-i18next";

/** Full-page wait, e.g. while a screen's chunk loads or the guard checks the session. */
export function PageLoading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <p>{label ?? t("common.loading")}</p>
    </div>
  );
}
