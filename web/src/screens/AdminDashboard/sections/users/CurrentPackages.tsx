/** The user's package assignments in the Assign Package dialog, each active one with Remove (confirmed). */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery } from "@tanstack/react-query";
import type { AdminUserRow, PackageAssignment } from "@storefront/shared";
import { ApiError } from "../../../../api/client";
import { ConfirmDialog } from "../../../../components/ConfirmDialog";
import { useToast } from "../../../../components/Toasts";
import { adminApi } from "../../adminApi";
import { useAdmin } from "../../context";
import { adminKeys, adminQueries, useAdminMutation } from "../../queries";
import { formatDate, formatNumber } from "../../ui";

/** The assignments of `user`, read once per dialog; a 401 says the session ended and goes to the login. */
export function useAssignments(user: AdminUserRow): PackageAssignment[] {
  const { t } = useTranslation();
  const toast = useToast();
  const { sessionExpired } = useAdmin();
  const query = useQuery({ ...adminQueries.userPackages(user.id), staleTime: 0, retry: false });
  const { error } = query;
  useEffect(() => {
    if (error instanceof ApiError && error.status === 401) {
      toast.error(t("admin.assign.sessionExpired"));
      sessionExpired();
    }
  }, [error, toast, t, sessionExpired]);
  return query.data ?? [];
}

export function CurrentPackages({ user, current }: { user: AdminUserRow; current: PackageAssignment[] }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const [removing, setRemoving] = useState<PackageAssignment | null>(null);
  const removal = useAdminMutation(
    (assignment: PackageAssignment) => adminApi.removeAssignment(assignment.id),
    [[...adminKeys.userPackages, user.id], adminKeys.users],
  );

  async function remove(assignment: PackageAssignment) {
    setRemoving(null);
    try {
      await removal.mutateAsync(assignment);
      toast.success(t("admin.assign.removed"));
    } catch {
      toast.error(t("admin.assign.removeFailed"));
    }
  }

  return (
    <>
      <h3 className="admin-subtitle">{t("admin.assign.current")}</h3>
      {current.length === 0 ? (
        <p className="admin-muted">{t("admin.assign.none")}</p>
      ) : (
        <ul className="admin-assignments" data-testid="current-packages">
          {current.map((a) => (
            <li key={a.id}>
              <span>
                <strong>{a.package_name}</strong> · {formatNumber(a.coins, i18n.language)} ·{" "}
                {formatDate(a.expires_at, i18n.language)}
              </span>
              <span className={`admin-badge ${a.is_active ? "admin-badge--ok" : "admin-badge--off"}`}>
                {a.is_active ? t("admin.users.activeLabel") : t("admin.users.inactiveLabel")}
              </span>
              {a.is_active && (
                <button type="button" className="btn btn--danger btn--small" onClick={() => setRemoving(a)}>
                  {t("admin.assign.remove")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t("admin.assign.removeTitle")}
        message={t("admin.assign.removeConfirm")}
        danger
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}
