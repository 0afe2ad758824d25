/**
 * Administrators (`admins:manage`): the accounts with role, active flag, last login and creation;
 * add one, change a role, deactivate / reactivate, reset a password. The server enforces the
 * rules (own account, last super admin, password strength); the forms check the shared password
 * rule first so each problem is named in the screen's language, and a refusal shows its code's text.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AdminAccount, AdminRole } from "@storefront/shared";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { useToast } from "../../../components/Toasts";
import { adminApi } from "../adminApi";
import { useAdmin } from "../context";
import { adminKeys, adminQueries, useAdminMutation, useAdminQuery } from "../queries";
import { errorText, Panel, Table } from "../ui";
import { AddAdminDialog, ResetPasswordDialog } from "./admins/AdminDialogs";
import { AdminRow } from "./admins/AdminRow";

type Change = { account: AdminAccount; role?: AdminRole; isActive?: boolean };

export default function Admins() {
  const { t } = useTranslation();
  const toast = useToast();
  const { admin: me } = useAdmin();
  const { data } = useAdminQuery(adminQueries.admins(), t("admin.admins.loadFailed"));
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<AdminAccount | null>(null);
  const [deactivating, setDeactivating] = useState<AdminAccount | null>(null);
  // Refreshed whatever the answer: a refused role change puts the stored role back in its select.
  const update = useAdminMutation(
    ({ account, ...body }: Change) => adminApi.updateAdmin({ id: account.id, ...body }),
    [adminKeys.admins],
  );

  async function change(account: AdminAccount, body: Omit<Change, "account">) {
    try {
      await update.mutateAsync({ account, ...body });
      toast.success(t("admin.admins.updated", { username: account.username }));
    } catch (caught) {
      toast.error(errorText(caught, t("admin.admins.updateFailed")));
    }
  }

  return (
    <Panel
      title={t("admin.admins.title")}
      actions={
        <button type="button" className="btn btn--primary" onClick={() => setAdding(true)}>
          + {t("admin.admins.new")}
        </button>
      }
    >
      <div className="admin-admins">
        <Table
          testId="admins-table"
          headers={[
            t("admin.admins.username"),
            t("admin.admins.role"),
            t("admin.admins.status"),
            t("admin.admins.lastLogin"),
            t("admin.admins.created"),
            t("admin.admins.actions"),
          ]}
          rows={data}
          empty={t("admin.admins.empty")}
        >
          {(account) => (
            <AdminRow
              key={account.id}
              account={account}
              self={account.id === me.id}
              busy={update.isPending && update.variables.account.id === account.id}
              onChange={(body) => void change(account, body)}
              onDeactivate={() => setDeactivating(account)}
              onResetPassword={() => setResetting(account)}
            />
          )}
        </Table>
      </div>
      {adding && <AddAdminDialog onClose={() => setAdding(false)} />}
      {resetting && <ResetPasswordDialog account={resetting} onClose={() => setResetting(null)} />}
      <ConfirmDialog
        open={deactivating !== null}
        title={t("admin.admins.deactivateTitle")}
        message={t("admin.admins.deactivateConfirm", { username: deactivating?.username ?? "" })}
        confirmLabel={t("admin.admins.deactivate")}
        danger
        onConfirm={() => {
          const target = deactivating;
          setDeactivating(null);
          if (target) void change(target, { isActive: false });
        }}
        onCancel={() => setDeactivating(null)}
      />
    </Panel>
  );
}
