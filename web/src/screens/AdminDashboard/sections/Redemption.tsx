/**
 * Redemption codes (coins:grant): make a batch (label, how many codes, coins per code, uses per
 * code, expiry), see its codes this once (copy or CSV), and follow each batch: redeemed and
 * remaining uses, who redeemed, on or off.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CreateRedemptionBatchResponse, RedemptionBatchView } from "@storefront/shared";
import { useToast } from "../../../components/Toasts";
import { adminApi } from "../adminApi";
import { adminKeys, adminQueries, useAdminMutation, useAdminQuery } from "../queries";
import { errorText, formatDate, formatNumber, Panel, Table } from "../ui";
import { MadeCodesDialog, RedemptionsDialog } from "./redemption/BatchDialogs";
import { CreateBatchDialog } from "./redemption/CreateBatchDialog";

export default function Redemption() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const { data } = useAdminQuery(adminQueries.redemptionBatches(), t("admin.redemption.loadFailed"));
  const setEnabled = useAdminMutation(
    (batch: RedemptionBatchView) => adminApi.setRedemptionBatch(batch.id, !batch.enabled),
    [adminKeys.redemption],
  );
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<CreateRedemptionBatchResponse | null>(null);
  const [viewing, setViewing] = useState<RedemptionBatchView | null>(null);
  const n = (value: number) => formatNumber(value, i18n.language);

  async function toggle(batch: RedemptionBatchView) {
    try {
      await setEnabled.mutateAsync(batch);
      toast.success(batch.enabled ? t("admin.redemption.disabled") : t("admin.redemption.enabled"));
    } catch (caught) {
      toast.error(errorText(caught, t("admin.redemption.updateFailed")));
    }
  }

  return (
    <Panel
      title={t("admin.redemption.title")}
      actions={
        <button type="button" className="btn btn--primary btn--small" onClick={() => setCreating(true)}>
          {t("admin.redemption.create")}
        </button>
      }
    >
      <p className="admin-muted">{t("admin.redemption.intro")}</p>
      <Table
        testId="redemption-table"
        headers={[
          t("admin.redemption.label"),
          t("admin.redemption.coins"),
          t("admin.redemption.usesPerCode"),
          t("admin.redemption.redeemed"),
          t("admin.redemption.remaining"),
          t("admin.redemption.expires"),
          t("admin.redemption.status"),
          "",
        ]}
        rows={data}
        empty={t("admin.redemption.none")}
      >
        {(b) => (
          <tr key={b.id} data-batch-id={b.id}>
            <td dir="auto">{b.label}</td>
            <td>{n(b.coins)}</td>
            <td>{n(b.uses_per_code)}</td>
            <td>{n(b.redeemed)}</td>
            <td>{n(b.remaining)}</td>
            <td>{formatDate(b.expires_at, i18n.language)}</td>
            <td>{b.enabled ? t("admin.redemption.on") : t("admin.redemption.off")}</td>
            <td className="admin-actions">
              <button type="button" className="btn btn--secondary btn--small" onClick={() => setViewing(b)}>
                {t("admin.redemption.who")}
              </button>
              <button type="button" className="btn btn--secondary btn--small" onClick={() => void toggle(b)}>
                {b.enabled ? t("admin.redemption.disable") : t("admin.redemption.enable")}
              </button>
            </td>
          </tr>
        )}
      </Table>
      {creating && (
        <CreateBatchDialog
          onClose={() => setCreating(false)}
          onMade={(result) => {
            setCreating(false);
            setMade(result);
          }}
        />
      )}
      {made && <MadeCodesDialog made={made} onClose={() => setMade(null)} />}
      {viewing && <RedemptionsDialog batch={viewing} onClose={() => setViewing(null)} />}
    </Panel>
  );
}
