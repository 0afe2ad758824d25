/** SPEC §2 User Management's Assign Package dialog: the user's packages, and a form to add one. */
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useQuery } from "@tanstack/react-query";
import type { AdminUserRow } from "@storefront/shared";
import { useToast } from "../../../../components/Toasts";
import { adminApi } from "../../adminApi";
import { Field, FormActions, Modal } from "../../forms";
import { adminKeys, adminQueries, useAdminMutation } from "../../queries";
import { errorText, formatNumber } from "../../ui";
import { CurrentPackages, useAssignments } from "./CurrentPackages";

export function AssignPackageDialog({ user, onClose }: { user: AdminUserRow; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const selectId = useId();
  const expiresId = useId();
  const current = useAssignments(user);
  // Only active packages are offered; a failed list offers none.
  const packages = (useQuery({ ...adminQueries.packages(), staleTime: 0, retry: false }).data ?? []).filter(
    (p) => p.status === "active",
  );
  const [packageId, setPackageId] = useState("");
  const [expiresAt, setExpiresAt] = useState("");
  const [autoRenew, setAutoRenew] = useState(true);
  const [error, setError] = useState("");
  const [balance, setBalance] = useState(user.coins);
  const assign = useAdminMutation(adminApi.assign, [[...adminKeys.userPackages, user.id], adminKeys.users]);

  const activeIds = new Set(current.filter((a) => a.is_active).map((a) => a.package_id));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!packageId) {
      setError(t("admin.assign.required"));
      return;
    }
    if (activeIds.has(packageId)) {
      setError(t("admin.assign.blocked"));
      return;
    }
    setError("");
    try {
      const res = await assign.mutateAsync({
        userId: user.id,
        packageId,
        expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
        autoRenew,
      });
      toast.success(t("admin.assign.assigned", { coins: res.coinsAdded }));
      setBalance((b) => b + res.coinsAdded);
      setPackageId("");
    } catch (caught) {
      // package_already_active has SPEC's own text (admin.assign.duplicate).
      toast.error(errorText(caught, t("admin.assign.failed")));
    }
  }

  return (
    <Modal open title={t("admin.assign.title")} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="admin-form">
        <p className="admin-muted">
          {t("admin.assign.user")} <bdi dir="ltr">{user.phone}</bdi>
          <br />
          {t("admin.assign.balance", { coins: formatNumber(balance, i18n.language) })}
        </p>
        <CurrentPackages user={user} current={current} />
        <Field id={selectId} label={t("admin.assign.select")}>
          <select
            id={selectId}
            className="select"
            value={packageId}
            onChange={(e) => setPackageId(e.target.value)}
            aria-invalid={error ? true : undefined}
          >
            <option value="">{t("admin.assign.choose")}</option>
            {packages.map((p) => (
              <option key={p.id} value={p.id} disabled={activeIds.has(p.id)}>
                {p.name} — {formatNumber(p.coins, i18n.language)} {activeIds.has(p.id) ? t("admin.assign.alreadyActive") : ""}
              </option>
            ))}
          </select>
          {error && (
            <span className="field-error" role="alert">
              {error}
            </span>
          )}
        </Field>
        <Field id={expiresId} label={t("admin.assign.expires")}>
          <input
            id={expiresId}
            className="input"
            type="datetime-local"
            value={expiresAt}
            onChange={(e) => setExpiresAt(e.target.value)}
          />
        </Field>
        <label className="admin-check">
          <input type="checkbox" checked={autoRenew} onChange={(e) => setAutoRenew(e.target.checked)} />
          {t("admin.assign.autoRenew")}
        </label>
        <FormActions
          onCancel={onClose}
          busy={assign.isPending}
          label={t("admin.assign.submit")}
          busyLabel={t("admin.assign.assigning")}
        />
      </form>
    </Modal>
  );
}
