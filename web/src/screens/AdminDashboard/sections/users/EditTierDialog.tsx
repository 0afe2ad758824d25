/** SPEC §2 User Management's Edit Tier dialog: coins and tier floor, with the tier the user will be shown. */
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useQuery } from "@tanstack/react-query";
import { DEFAULT_TIERS, shownTier, type AdminUserRow } from "@storefront/shared";
import { useToast } from "../../../../components/Toasts";
import { adminApi } from "../../adminApi";
import { Field, FormActions, Modal } from "../../forms";
import { adminKeys, adminQueries, useAdminMutation } from "../../queries";
import { errorText } from "../../ui";

export function EditTierDialog({ user, onClose, onSaved }: { user: AdminUserRow; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const coinsId = useId();
  const tierId = useId();
  const [coins, setCoins] = useState(String(user.coins));
  const [tier, setTier] = useState(user.tier_floor);
  const [error, setError] = useState("");
  // The tier table the server computes the shown tier with (the defaults until it has loaded, or if it fails).
  const tiers = useQuery({ ...adminQueries.walletConfig(), retry: false }).data?.tiers ?? DEFAULT_TIERS;
  const update = useAdminMutation(
    ({ value, floor }: { value: number; floor: number }) => adminApi.updateTier(user.id, value, floor),
    [adminKeys.users],
  );
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
    try {
      const res = await update.mutateAsync({ value, floor: tier });
      toast.success(t("admin.tier.updated", { tier: shownTier(res.newCoins, res.newTier, tiers), coins: res.newCoins }));
      onSaved();
    } catch (caught) {
      toast.error(errorText(caught, t("admin.tier.failed")));
    }
  }

  return (
    <Modal open title={t("admin.tier.title")} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="admin-form">
        <p className="admin-muted" dir="auto">
          {user.phone}
        </p>
        <Field id={coinsId} label={t("admin.tier.coins")} error={error}>
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
        </Field>
        <Field id={tierId} label={t("admin.tier.floor")} hint={<span className="field-hint">{t("admin.tier.floorHint")}</span>}>
          <select id={tierId} className="select" value={tier} onChange={(e) => setTier(Number(e.target.value))}>
            {Array.from({ length: 10 }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </Field>
        {preview !== null && (
          <p className="alert alert--warning" data-testid="tier-preview" aria-live="polite">
            {t("admin.tier.preview", { tier: preview })}
          </p>
        )}
        <FormActions
          onCancel={onClose}
          busy={update.isPending}
          label={t("admin.tier.update")}
          busyLabel={t("admin.tier.updating")}
        />
      </form>
    </Modal>
  );
}
