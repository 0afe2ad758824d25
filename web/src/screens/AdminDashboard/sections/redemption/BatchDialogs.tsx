/** The dialogs of a made batch: its codes, shown this once (copy or CSV), and who redeemed them. */
import { useTranslation } from "react-i18next";
import type { CreateRedemptionBatchResponse, RedemptionBatchView } from "@storefront/shared";
import { Modal } from "../../forms";
import { adminQueries, useAdminQuery } from "../../queries";
import { formatDate, formatNumber, Table } from "../../ui";

/** The codes as a CSV file the administrator downloads once. */
function downloadCodes(made: CreateRedemptionBatchResponse) {
  const rows = [
    "code,coins,uses_per_code,expires_at",
    ...made.codes.map((c) => `${c},${made.batch.coins},${made.batch.uses_per_code},${made.batch.expires_at}`),
  ];
  const url = URL.createObjectURL(new Blob([`${rows.join("\r\n")}\r\n`], { type: "text/csv" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `codes-${made.batch.label.replace(/[^\w-]+/gu, "_")}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

export function MadeCodesDialog({ made, onClose }: { made: CreateRedemptionBatchResponse; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal open title={t("admin.redemption.madeTitle", { count: made.codes.length })} onClose={onClose}>
      <p className="alert alert--warning">{t("admin.redemption.onceOnly")}</p>
      <textarea className="input admin-codes" readOnly dir="ltr" translate="no" rows={8} value={made.codes.join("\n")} />
      <div className="dialog__actions">
        <button type="button" className="btn btn--secondary" onClick={() => downloadCodes(made)}>
          {t("admin.redemption.downloadCsv")}
        </button>
        <button type="button" className="btn btn--primary" onClick={onClose}>
          {t("admin.redemption.done")}
        </button>
      </div>
    </Modal>
  );
}

export function RedemptionsDialog({ batch, onClose }: { batch: RedemptionBatchView; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const { data } = useAdminQuery(adminQueries.redemptions(batch.id), t("admin.redemption.loadFailed"));
  return (
    <Modal open title={t("admin.redemption.whoTitle", { label: batch.label })} onClose={onClose}>
      <Table
        headers={[t("admin.redemption.phone"), t("admin.redemption.coins"), t("admin.redemption.when")]}
        rows={data}
        empty={t("admin.redemption.nobody")}
      >
        {(r) => (
          <tr key={`${r.user_id}-${r.at}`}>
            <td dir="ltr">{r.phone ?? r.user_id}</td>
            <td>{formatNumber(r.coins, i18n.language)}</td>
            <td>{formatDate(r.at, i18n.language)}</td>
          </tr>
        )}
      </Table>
      <div className="dialog__actions">
        <button type="button" className="btn btn--primary" onClick={onClose}>
          {t("admin.redemption.done")}
        </button>
      </div>
    </Modal>
  );
}
