/** The Edit Tier and Assign Package dialogs of SPEC §2 User Management. */
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import {
  DEFAULT_TIERS,
  shownTier,
  type AdminUserRow,
  type PackageAssignment,
  type TierRow,
  type WalletPackage,
} from "@storefront/shared";
import { ApiError } from "../../../api/client";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { useToast } from "../../../components/Toasts";
import { adminApi } from "../adminApi";
import { useAdmin } from "../context";
import { errorText, FormActions, formatDate, formatNumber, Modal } from "../ui";

export function EditTierDialog({ user, onClose, onSaved }: { user: AdminUserRow; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const coinsId = useId();
  const tierId = useId();
  const [coins, setCoins] = useState(String(user.coins));
  const [tier, setTier] = useState(user.tier_floor);
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);
  // The tier table the server computes the shown tier with (the defaults until it has loaded).
  const [tiers, setTiers] = useState<readonly TierRow[]>(DEFAULT_TIERS);
  useEffect(() => {
    let live = true;
    adminApi.walletConfig().then(
      (res) => live && setTiers(res.tiers),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  const coinsValue = Number(coins);
  const preview =
    coins.trim() !== "" && Number.isInteger(coinsValue) && coinsValue >= 0 ? shownTier(coinsValue, tier, tiers) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = Number(coins);
    if (coins.trim() === "" || !Number.isInteger(value) || value < 0) {
      setError(t("admin.tier.coinsInvalid"));
      return;
    }
    setSaving(true);
    try {
      const res = await adminApi.updateTier(user.id, value, tier);
      toast.success(t("admin.tier.updated", { tier: shownTier(res.newCoins, res.newTier, tiers), coins: res.newCoins }));
      onSaved();
    } catch (caught) {
      toast.error(errorText(caught, t("admin.tier.failed")));
      setSaving(false);
    }
  }

  return (
    <Modal open title={t("admin.tier.title")} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="admin-form">
        <p className="admin-muted" dir="auto">
          {user.phone}
        </p>
        <div className="field">
          <label htmlFor={coinsId}>{t("admin.tier.coins")}</label>
          <input
            id={coinsId}
            className="input"
            type="number"
            min={0}
            step={1}
            value={coins}
            onChange={(e) => setCoins(e.target.value)}
            aria-invalid={error ? true : undefined}
          />
          {error && <span className="field-error">{error}</span>}
        </div>
        <div className="field">
          <label htmlFor={tierId}>{t("admin.tier.floor")}</label>
          <select id={tierId} className="select" value={tier} onChange={(e) => setTier(Number(e.target.value))}>
            {Array.from({ length: 10 }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <span className="field-hint">{t("admin.tier.floorHint")}</span>
        </div>
        {preview !== null && (
          <p className="alert alert--warning" data-testid="tier-preview" aria-live="polite">
            {t("admin.tier.preview", { tier: preview })}
          </p>
        )}
        <FormActions onCancel={onClose} busy={saving} label={t("admin.tier.update")} busyLabel={t("admin.tier.updating")} />
      </form>
    </Modal>
  );
}

export function AssignPackageDialog({ user, onClose, onChanged }: { user: AdminUserRow; onClose(): void; onChanged(): void }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const { sessionExpired } = useAdmin();
  const selectId = useId();
  const expiresId = useId();
  const [packages, setPackages] = useState<WalletPackage[]>([]);
  const [current, setCurrent] = useState<PackageAssignment[]>([]);
  const [packageId, setPackageId] = useState("");
  const [expiresAt, setExpiresAt] = useState("");
  const [autoRenew, setAutoRenew] = useState(true);
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState<PackageAssignment | null>(null);
  const [balance, setBalance] = useState(user.coins);

  const loadCurrent = useCallback(async () => {
    try {
      setCurrent((await adminApi.userPackages(user.id)).packages);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) {
        toast.error(t("admin.assign.sessionExpired"));
        sessionExpired();
      }
    }
  }, [user.id, toast, t, sessionExpired]);

  useEffect(() => {
    void loadCurrent();
    adminApi.packages().then(
      (res) => setPackages(res.packages.filter((p) => p.status === "active")),
      () => setPackages([]),
    );
  }, [loadCurrent]);

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
    setSaving(true);
    try {
      const res = await adminApi.assign({
        userId: user.id,
        packageId,
        expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
        autoRenew,
      });
      toast.success(t("admin.assign.assigned", { coins: res.coinsAdded }));
      setBalance((b) => b + res.coinsAdded);
      setPackageId("");
      await loadCurrent();
      onChanged();
    } catch (caught) {
      // package_already_active has SPEC's own text (admin.assign.duplicate).
      toast.error(errorText(caught, t("admin.assign.failed")));
    }
    setSaving(false);
  }

  async function remove(assignment: PackageAssignment) {
    setRemoving(null);
    try {
      await adminApi.removeAssignment(assignment.id);
      toast.success(t("admin.assign.removed"));
      await loadCurrent();
      onChanged();
    } catch {
      toast.error(t("admin.assign.removeFailed"));
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
        <div className="field">
          <label htmlFor={selectId}>{t("admin.assign.select")}</label>
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
        </div>
        <div className="field">
          <label htmlFor={expiresId}>{t("admin.assign.expires")}</label>
          <input
            id={expiresId}
            className="input"
            type="datetime-local"
            value={expiresAt}
            onChange={(e) => setExpiresAt(e.target.value)}
          />
        </div>
        <label className="admin-check">
          <input type="checkbox" checked={autoRenew} onChange={(e) => setAutoRenew(e.target.checked)} />
          {t("admin.assign.autoRenew")}
        </label>
        <FormActions onCancel={onClose} busy={saving} label={t("admin.assign.submit")} busyLabel={t("admin.assign.assigning")} />
      </form>
      <ConfirmDialog
        open={removing !== null}
        title={t("admin.assign.removeTitle")}
        message={t("admin.assign.removeConfirm")}
        danger
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      />
    </Modal>
  );
}
