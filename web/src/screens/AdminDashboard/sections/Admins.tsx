/**
 * Administrators (`admins:manage`): the accounts with role, active flag, last login and creation;
 * add one, change a role, deactivate / reactivate, reset a password. The server enforces the
 * rules (own account, last super admin, password strength); the forms check the shared password
 * rule first so each problem is named in the screen's language, and a refusal shows its code's text.
 */
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import {
  ADMIN_PASSWORD_MIN,
  ADMIN_PASSWORD_MIN_DISTINCT,
  ADMIN_ROLES,
  adminPasswordWeakness,
  type AdminAccount,
  type AdminRole,
} from "@storefront/shared";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { useToast } from "../../../components/Toasts";
import { adminApi } from "../adminApi";
import { useAdmin } from "../context";
import { errorText, FormActions, formatDate, Modal, Panel, Table, useLoad } from "../ui";

const load = () => adminApi.admins().then((r) => r.admins);
const USERNAME = /^[A-Za-z0-9._-]{3,50}$/u;

export default function Admins() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const { admin: me } = useAdmin();
  const { data, reload } = useLoad(load, t("admin.admins.loadFailed"));
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<AdminAccount | null>(null);
  const [deactivating, setDeactivating] = useState<AdminAccount | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function change(account: AdminAccount, body: { role?: AdminRole; isActive?: boolean }) {
    setBusy(account.id);
    try {
      await adminApi.updateAdmin({ id: account.id, ...body });
      toast.success(t("admin.admins.updated", { username: account.username }));
    } catch (caught) {
      toast.error(errorText(caught, t("admin.admins.updateFailed")));
    }
    setBusy(null);
    reload();
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
          {(account) => {
            const self = account.id === me.id;
            return (
              <tr key={account.id} data-admin-id={account.id}>
                <td data-label={t("admin.admins.username")}>
                  <bdi className="admin-mono">{account.username}</bdi>
                  {self && <span className="admin-muted"> ({t("admin.admins.you")})</span>}
                </td>
                <td data-label={t("admin.admins.role")}>
                  <select
                    className="select admin-role-select"
                    value={account.role}
                    disabled={self || busy === account.id}
                    aria-label={t("admin.admins.roleOf", { username: account.username })}
                    onChange={(e) => void change(account, { role: e.target.value as AdminRole })}
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
                        <button
                          type="button"
                          className="btn btn--danger btn--small"
                          disabled={busy === account.id}
                          onClick={() => setDeactivating(account)}
                        >
                          {t("admin.admins.deactivate")}
                        </button>
                      ) : (
                        <button
                          type="button"
                          className="btn btn--secondary btn--small"
                          disabled={busy === account.id}
                          onClick={() => void change(account, { isActive: true })}
                        >
                          {t("admin.admins.reactivate")}
                        </button>
                      ))}
                    <button type="button" className="btn btn--secondary btn--small" onClick={() => setResetting(account)}>
                      {t("admin.admins.resetPassword")}
                    </button>
                  </div>
                </td>
              </tr>
            );
          }}
        </Table>
      </div>
      {adding && (
        <AddAdminDialog
          onClose={() => setAdding(false)}
          onSaved={() => {
            setAdding(false);
            reload();
          }}
        />
      )}
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

/** The shared admin password rule in this language's words, checked before anything is sent. */
function passwordError(password: string, username: string, t: TFunction): string | null {
  if (password.length < ADMIN_PASSWORD_MIN) return t("admin.admins.passwordShort", { min: ADMIN_PASSWORD_MIN });
  const weakness = adminPasswordWeakness(password, username);
  if (weakness === "containsUsername") return t("admin.admins.passwordHasUsername");
  if (weakness === "fewDistinct") return t("admin.admins.passwordFewDistinct", { n: ADMIN_PASSWORD_MIN_DISTINCT });
  return null;
}

function PasswordField({ id, value, onChange, error }: { id: string; value: string; onChange(v: string): void; error?: string }) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor={id}>{t("admin.admins.password")}</label>
      <input
        id={id}
        className="input"
        type="password"
        dir="ltr"
        autoComplete="new-password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint`}
      />
      <span className="admin-muted" id={`${id}-hint`}>
        {t("admin.admins.passwordHint", { min: ADMIN_PASSWORD_MIN })}
      </span>
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}

function AddAdminDialog({ onClose, onSaved }: { onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<AdminRole>("support");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ username?: string; password?: string; server?: string }>({});
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!USERNAME.test(username.trim())) found.username = t("admin.admins.usernameInvalid");
    const weak = passwordError(password, username.trim(), t);
    if (weak) found.password = weak;
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      await adminApi.createAdmin({ username: username.trim(), role, password });
      toast.success(t("admin.admins.createdToast", { username: username.trim() }));
      onSaved();
    } catch (caught) {
      setErrors({ server: errorText(caught, t("admin.admins.createFailed")) });
      setSaving(false);
    }
  }

  return (
    <Modal open title={t("admin.admins.addTitle")} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="admin-form" data-testid="admin-add-form">
        <div className="field">
          <label htmlFor={`${id}-username`}>{t("admin.admins.username")}</label>
          <input
            id={`${id}-username`}
            className="input"
            dir="ltr"
            autoComplete="off"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            aria-invalid={errors.username ? true : undefined}
          />
          {errors.username && <span className="field-error">{errors.username}</span>}
        </div>
        <div className="field">
          <label htmlFor={`${id}-role`}>{t("admin.admins.role")}</label>
          <select id={`${id}-role`} className="select" value={role} onChange={(e) => setRole(e.target.value as AdminRole)}>
            {ADMIN_ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`admin.roles.${r}`)}
              </option>
            ))}
          </select>
        </div>
        <PasswordField id={`${id}-password`} value={password} onChange={setPassword} error={errors.password} />
        {errors.server && (
          <p className="alert alert--error" role="alert" dir="auto">
            {errors.server}
          </p>
        )}
        <FormActions onCancel={onClose} busy={saving} label={t("admin.admins.create")} busyLabel={t("admin.common.saving")} />
      </form>
    </Modal>
  );
}

function ResetPasswordDialog({ account, onClose }: { account: AdminAccount; onClose(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const weak = passwordError(password, account.username, t);
    setError(weak ?? "");
    if (weak) return;
    setSaving(true);
    try {
      await adminApi.updateAdmin({ id: account.id, password });
      toast.success(t("admin.admins.passwordReset", { username: account.username }));
      onClose();
    } catch (caught) {
      setError(errorText(caught, t("admin.admins.updateFailed")));
      setSaving(false);
    }
  }

  return (
    <Modal open title={t("admin.admins.resetTitle", { username: account.username })} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="admin-form" data-testid="admin-reset-form">
        <p className="admin-muted">{t("admin.admins.resetHint")}</p>
        <PasswordField id={`${id}-password`} value={password} onChange={setPassword} error={error} />
        <FormActions
          onCancel={onClose}
          busy={saving}
          label={t("admin.admins.resetPassword")}
          busyLabel={t("admin.common.saving")}
        />
      </form>
    </Modal>
  );
}
