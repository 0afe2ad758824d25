/** SPEC §2 User Management ("Customer Support"): users with usage, active toggle, Edit Tier and Assign Package. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AdminUserRow } from "@storefront/shared";
import { Switch } from "../../../components/Switch";
import { useToast } from "../../../components/Toasts";
import { adminApi } from "../adminApi";
import { adminKeys, adminQueries, useAdminMutation, useAdminQuery } from "../queries";
import { formatNumber, Pager, Panel, Table, useCan } from "../ui";
import { AssignPackageDialog } from "./users/AssignPackageDialog";
import { EditTierDialog } from "./users/EditTierDialog";

const PAGE_SIZE = 20;

export default function Users() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const can = useCan();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<AdminUserRow | null>(null);
  const [assigning, setAssigning] = useState<AdminUserRow | null>(null);
  const { data } = useAdminQuery(
    adminQueries.users({ page, limit: PAGE_SIZE, search: search.trim() || undefined }),
    t("admin.users.loadFailed"),
    { keepPrevious: true },
  );
  const setActive = useAdminMutation((user: AdminUserRow) => adminApi.setActive(user.id, !user.is_active), [adminKeys.users]);
  const n = (value: number) => formatNumber(value, i18n.language);

  async function toggle(user: AdminUserRow) {
    try {
      await setActive.mutateAsync(user);
      toast.success(t("admin.users.statusUpdated"));
    } catch {
      toast.error(t("admin.users.statusFailed"));
    }
  }

  return (
    <Panel
      title={t("admin.users.title")}
      actions={
        <input
          type="search"
          className="input admin-search"
          dir="ltr"
          placeholder={t("admin.users.search")}
          aria-label={t("admin.users.search")}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      }
    >
      <Table
        testId="users-table"
        headers={[
          t("admin.users.id"),
          t("admin.users.phone"),
          t("admin.users.tokens"),
          t("admin.users.tier"),
          t("admin.users.usage"),
          t("admin.users.active"),
          t("admin.users.actions"),
          t("admin.users.status"),
        ]}
        rows={data?.users}
        empty={t("admin.users.empty")}
      >
        {(user) => (
          <tr key={user.id} data-user-id={user.id}>
            <td className="admin-mono" title={user.id} translate="no">
              {user.id.slice(-8)}
            </td>
            <td dir="ltr">{user.phone}</td>
            <td>{n(user.coins)}</td>
            <td>{user.tier}</td>
            <td>{n(user.usage_stats.reduce((sum, s) => sum + s.total_tokens, 0))}</td>
            <td>
              <Switch
                checked={user.is_active}
                disabled={!can("users:toggle")}
                onChange={() => void toggle(user)}
                ariaLabel={t("admin.users.toggleLabel", { phone: user.phone })}
                tone="success"
              />
            </td>
            <td className="admin-actions">
              {can("users:edit_wallet") && can("coins:grant") && (
                <button type="button" className="btn btn--secondary btn--small" onClick={() => setEditing(user)}>
                  {t("admin.users.editTier")}
                </button>
              )}
              {can("packages:assign") && can("coins:grant") && (
                <button type="button" className="btn btn--primary btn--small" onClick={() => setAssigning(user)}>
                  {t("admin.users.assignPackage")}
                </button>
              )}
            </td>
            <td>
              <span className={`admin-badge ${user.is_active ? "admin-badge--ok" : "admin-badge--off"}`}>
                {user.is_active ? t("admin.users.activeLabel") : t("admin.users.inactiveLabel")}
              </span>
            </td>
          </tr>
        )}
      </Table>
      {data && <Pager page={data.page} pages={data.total_pages} onPage={setPage} />}
      {editing && <EditTierDialog user={editing} onClose={() => setEditing(null)} onSaved={() => setEditing(null)} />}
      {assigning && <AssignPackageDialog user={assigning} onClose={() => setAssigning(null)} />}
    </Panel>
  );
}
