/**
 * Adding an administrator and resetting one's password. Both check the shared password rule first,
 * so each problem is named in the screen's language; a refusal shows its code's text.
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
import { useToast } from "../../../../components/Toasts";
import { adminApi } from "../../adminApi";
import { Field, FormActions, Modal } from "../../forms";
import { adminKeys, useAdminMutation } from "../../queries";
import { errorText } from "../../ui";

const USERNAME = /^[A-Za-z0-9._-]{3,50}$/u;

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
  const hint = (
    <span className="admin-muted" id={`${id}-hint`}>
      {t("admin.admins.passwordHint", { min: ADMIN_PASSWORD_MIN })}
    </span>
  );
  return (
    <Field id={id} label={t("admin.admins.password")} hint={hint} error={error}>
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
    </Field>
  );
}

export function AddAdminDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<AdminRole>("support");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ username?: string; password?: string; server?: string }>({});
  const create = useAdminMutation(adminApi.createAdmin, [adminKeys.admins]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!USERNAME.test(username.trim())) found.username = t("admin.admins.usernameInvalid");
    const weak = passwordError(password, username.trim(), t);
    if (weak) found.password = weak;
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      await create.mutateAsync({ username: username.trim(), role, password });
      toast.success(t("admin.admins.createdToast", { username: username.trim() }));
      onClose();
    } catch (caught) {
      setErrors({ server: errorText(caught, t("admin.admins.createFailed")) });
    }
  }

  return (
    <Modal open title={t("admin.admins.addTitle")} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="admin-form" data-testid="admin-add-form">
        <Field id={`${id}-username`} label={t("admin.admins.username")} error={errors.username}>
          <input
            id={`${id}-username`}
            className="input"
            dir="ltr"
            autoComplete="off"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            aria-invalid={errors.username ? true : undefined}
          />
        </Field>
        <Field id={`${id}-role`} label={t("admin.admins.role")}>
          <select id={`${id}-role`} className="select" value={role} onChange={(e) => setRole(e.target.value as AdminRole)}>
            {ADMIN_ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`admin.roles.${r}`)}
              </option>
            ))}
          </select>
        </Field>
        <PasswordField id={`${id}-password`} value={password} onChange={setPassword} error={errors.password} />
        {errors.server && (
          <p className="alert alert--error" role="alert" dir="auto">
            {errors.server}
          </p>
        )}
        <FormActions
          onCancel={onClose}
          busy={create.isPending}
          label={t("admin.admins.create")}
          busyLabel={t("admin.common.saving")}
        />
      </form>
    </Modal>
  );
}

export function ResetPasswordDialog({ account, onClose }: { account: AdminAccount; onClose(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const reset = useAdminMutation(adminApi.updateAdmin, [adminKeys.admins]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const weak = passwordError(password, account.username, t);
    setError(weak ?? "");
    if (weak) return;
    try {
      await reset.mutateAsync({ id: account.id, password });
      toast.success(t("admin.admins.passwordReset", { username: account.username }));
      onClose();
    } catch (caught) {
      setError(errorText(caught, t("admin.admins.updateFailed")));
    }
  }

  return (
    <Modal open title={t("admin.admins.resetTitle", { username: account.username })} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="admin-form" data-testid="admin-reset-form">
        <p className="admin-muted">{t("admin.admins.resetHint")}</p>
        <PasswordField id={`${id}-password`} value={password} onChange={setPassword} error={error} />
        <FormActions
          onCancel={onClose}
          busy={reset.isPending}
          label={t("admin.admins.resetPassword")}
          busyLabel={t("admin.common.saving")}
        />
      </form>
    </Modal>
  );
}
