/** One administrator's row: username, role select, status, last login, creation, and the actions. */
import { useTranslation } from "react-i18next";
import { ADMIN_ROLES, type AdminAccount, type AdminRole } from "@storefront/shared";
import { formatDate } from "../../ui";

export function AdminRow({
  account,
  self,
  busy,
  onChange,
  onDeactivate,
  onResetPassword,
}: {
  account: AdminAccount;
  /** The signed-in administrator's own row: no role change, no deactivation. */
  self: boolean;
  busy: boolean;
  onChange(body: { role?: AdminRole; isActive?: boolean }): void;
  onDeactivate(): void;
  onResetPassword(): void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <tr data-admin-id={account.id}>
      <td data-label={t("admin.admins.username")}>
        <bdi className="admin-mono">{account.username}</bdi>
        {self && <span className="admin-muted"> ({t("admin.admins.you")})</span>}
      </td>
      <td data-label={t("admin.admins.role")}>
        <select
          className="select admin-role-select"
          value={account.role}
          disabled={self || busy}
          aria-label={t("admin.admins.roleOf", { username: account.username })}
          onChange={(e) => onChange({ role: e.target.value as AdminRole })}
        >
          {ADMIN_ROLES.map((role) => (
            <option key={role} value={role}>
              {t(`admin.roles.${role}`)}
            </option>
          ))}
        </select>
      </td>
      <td data-label={t("admin.admins.status")}>
        <span className={`admin-badge ${account.is_active ? "admin-badge--ok" : "admin-badge--off"}`}>
          {account.is_active ? t("admin.admins.activeLabel") : t("admin.admins.inactiveLabel")}
        </span>
      </td>
      <td className="admin-nowrap" data-label={t("admin.admins.lastLogin")}>
        {account.last_login_at ? formatDate(account.last_login_at, i18n.language) : t("admin.admins.never")}
      </td>
      <td className="admin-nowrap" data-label={t("admin.admins.created")}>
        {formatDate(account.created_at, i18n.language)}
      </td>
      <td>
        <div className="admin-actions">
          {!self &&
            (account.is_active ? (
              <button type="button" className="btn btn--danger btn--small" disabled={busy} onClick={onDeactivate}>
                {t("admin.admins.deactivate")}
              </button>
            ) : (
              <button
                type="button"
                className="btn btn--secondary btn--small"
                disabled={busy}
                onClick={() => onChange({ isActive: true })}
              >
                {t("admin.admins.reactivate")}
              </button>
            ))}
          <button type="button" className="btn btn--secondary btn--small" onClick={onResetPassword}>
            {t("admin.admins.resetPassword")}
          </button>
        </div>
      </td>
    </tr>
  );
}
