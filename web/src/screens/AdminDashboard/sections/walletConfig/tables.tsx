/** Wallet Config's two editable tables: tokens per unit per feature, and the tier packages. */
import { useTranslation } from "react-i18next";
import type { PricingRow, TierRow } from "@storefront/shared";
import { Table } from "../../ui";

export type Cell = string | number;
/** A row as its inputs hold it: a number field may hold any text until it is checked. */
export type EditRow<T> = { [K in keyof T]: T[K] extends number ? Cell : T[K] };

export const TIER_NUMBERS = [
  "min_coins",
  "max_coins",
  "text_tokens",
  "image_tokens",
  "video_tokens",
  "audio_tokens",
  "sms_tokens",
] as const;

/** A whole-number cell of an editable table. */
function NumberCell({
  value,
  min,
  label,
  disabled,
  placeholder,
  onChange,
}: {
  value: Cell;
  min: number;
  label: string;
  disabled: boolean;
  placeholder?: string;
  onChange(value: string): void;
}) {
  return (
    <input
      className="input admin-cell-input"
      type="number"
      min={min}
      step={1}
      value={value}
      placeholder={placeholder}
      disabled={disabled}
      aria-label={label}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

export function PricingTable({
  rows,
  editable,
  onChange,
}: {
  rows: EditRow<PricingRow>[];
  editable: boolean;
  onChange(index: number, value: string): void;
}) {
  const { t } = useTranslation();
  const feature = (type: string) => t(`admin.walletConfig.features.${type}`, { defaultValue: type });
  return (
    <Table testId="pricing-table" headers={[t("admin.walletConfig.feature"), t("admin.walletConfig.tokensPerUnit")]} rows={rows}>
      {(row, i) => (
        <tr key={row.feature_type}>
          <td>{feature(row.feature_type)}</td>
          <td>
            <NumberCell
              value={row.tokens_per_unit}
              min={1}
              disabled={!editable}
              label={`${feature(row.feature_type)} ${t("admin.walletConfig.tokensPerUnit")}`}
              onChange={(value) => onChange(i, value)}
            />
          </td>
        </tr>
      )}
    </Table>
  );
}

export function TiersTable({
  rows,
  editable,
  onChange,
}: {
  rows: EditRow<TierRow>[];
  editable: boolean;
  onChange(index: number, key: keyof TierRow, value: string): void;
}) {
  const { t } = useTranslation();
  const cellLabel = (row: EditRow<TierRow>, column: string) =>
    `${t("admin.walletConfig.tierNumber")} ${row.tier_number} ${t(`admin.walletConfig.${column}`)}`;
  return (
    <Table
      testId="tiers-table"
      headers={[
        t("admin.walletConfig.tierNumber"),
        t("admin.walletConfig.tierName"),
        ...TIER_NUMBERS.map((key) => t(`admin.walletConfig.${key}`)),
        t("admin.walletConfig.daily_cap"),
      ]}
      rows={rows}
    >
      {(row, i) => (
        <tr key={row.tier_number}>
          <td>{row.tier_number}</td>
          <td>
            <input
              className="input admin-cell-input admin-cell-input--wide"
              value={row.tier_name}
              disabled={!editable}
              aria-label={cellLabel(row, "tierName")}
              onChange={(e) => onChange(i, "tier_name", e.target.value)}
            />
          </td>
          {TIER_NUMBERS.map((key) => (
            <td key={key}>
              <NumberCell
                value={row[key]}
                min={key.endsWith("_coins") ? 0 : 1}
                disabled={!editable}
                label={cellLabel(row, key)}
                onChange={(value) => onChange(i, key, value)}
              />
            </td>
          ))}
          <td>
            <NumberCell
              value={row.daily_cap ?? ""}
              min={1}
              placeholder={t("admin.walletConfig.noCap")}
              disabled={!editable}
              label={cellLabel(row, "daily_cap")}
              onChange={(value) => onChange(i, "daily_cap", value)}
            />
          </td>
        </tr>
      )}
    </Table>
  );
}
