/** SPEC §2 Wallet Config: explanation, token pricing table, tier packages table, Save Configuration. */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { tierTableProblems, type PricingRow, type TierRow } from "@storefront/shared";
import { useToast } from "../../../components/Toasts";
import { adminApi } from "../adminApi";
import { errorText, Panel, Table, useCan, useLoad } from "../ui";

const load = () => adminApi.walletConfig();

type Cell = string | number;
type EditRow<T> = { [K in keyof T]: T[K] extends number ? Cell : T[K] };

const TIER_NUMBERS = [
  "min_coins",
  "max_coins",
  "text_tokens",
  "image_tokens",
  "video_tokens",
  "audio_tokens",
  "sms_tokens",
] as const;

/** SPEC §5: every value an integer; tokens at least 1, coin bounds at least 0. */
function isInt(value: Cell, min: number): boolean {
  const text = String(value).trim();
  return /^-?\d+$/u.test(text) && Number(text) >= min;
}

export default function WalletConfig() {
  const { t } = useTranslation();
  const toast = useToast();
  const can = useCan();
  const editable = can("wallet_config:edit");
  const { data } = useLoad(load, t("admin.walletConfig.loadFailed"));
  const [pricing, setPricing] = useState<EditRow<PricingRow>[]>([]);
  const [tiers, setTiers] = useState<EditRow<TierRow>[]>([]);
  const [problem, setProblem] = useState("");
  const [saving, setSaving] = useState(false);
  // What the server holds, to tell unsaved edits apart (as text: an input gives "5" for 5).
  const [saved, setSaved] = useState("");
  const snapshot = (p: EditRow<PricingRow>[], tr: EditRow<TierRow>[]) =>
    JSON.stringify([p, tr], (_key, value: unknown) => (typeof value === "number" ? String(value) : (value ?? "")));
  const dirty = saved !== "" && snapshot(pricing, tiers) !== saved;

  useEffect(() => {
    if (!data) return;
    setPricing(data.pricing.map((r) => ({ ...r })));
    setTiers(data.tiers.map((r) => ({ ...r })));
    setSaved(snapshot(data.pricing, data.tiers));
  }, [data]);

  // Leaving the page (reload, closing the tab) with unsaved edits asks first.
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [dirty]);

  function validate(): string {
    for (const row of pricing)
      if (!isInt(row.tokens_per_unit, 1)) return t("admin.walletConfig.tokensMin", { feature: row.feature_type });
    for (const row of tiers) {
      const cap = String(row.daily_cap ?? "").trim();
      if (cap !== "" && !isInt(cap, 1))
        return t("admin.walletConfig.tierInvalid", { tier: row.tier_number, field: t("admin.walletConfig.daily_cap"), min: 1 });
      for (const key of TIER_NUMBERS) {
        const min = key.endsWith("_coins") ? 0 : 1;
        if (!isInt(row[key], min))
          return t("admin.walletConfig.tierInvalid", { tier: row.tier_number, field: t(`admin.walletConfig.${key}`), min });
      }
    }
    const numeric = tiers.map((r) => ({ ...r, min_coins: Number(r.min_coins), max_coins: Number(r.max_coins) })) as TierRow[];
    return tierTableProblems(numeric).length ? t("admin.walletConfig.overlap") : "";
  }

  async function save() {
    const found = validate();
    setProblem(found);
    if (found) return;
    setSaving(true);
    try {
      // An empty daily cap is "no default cap" for the tier.
      const cleaned = tiers.map((r) => ({ ...r, daily_cap: String(r.daily_cap ?? "").trim() === "" ? null : r.daily_cap }));
      await adminApi.saveWalletConfig(pricing, cleaned);
      setSaved(snapshot(pricing, tiers));
      toast.success(t("admin.walletConfig.saved"));
    } catch (caught) {
      const server = errorText(caught, "");
      if (server) setProblem(server);
      toast.error(t("admin.walletConfig.saveFailed"));
    }
    setSaving(false);
  }

  const setTier = (index: number, key: keyof TierRow, value: string) =>
    setTiers((rows) => rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)));

  return (
    <div className="admin-stack">
      <Panel>
        <p>{t("admin.walletConfig.intro")}</p>
        {!editable && <p className="alert alert--warning">{t("admin.walletConfig.readOnly")}</p>}
        {problem && (
          <p className="alert alert--error" role="alert">
            {problem}
          </p>
        )}
      </Panel>
      <Panel title={t("admin.walletConfig.pricingTitle")}>
        <Table
          testId="pricing-table"
          headers={[t("admin.walletConfig.feature"), t("admin.walletConfig.tokensPerUnit")]}
          rows={pricing}
        >
          {(row, i) => (
            <tr key={row.feature_type}>
              <td>{t(`admin.walletConfig.features.${row.feature_type}`, { defaultValue: row.feature_type })}</td>
              <td>
                <input
                  className="input admin-cell-input"
                  type="number"
                  min={1}
                  step={1}
                  value={row.tokens_per_unit}
                  disabled={!editable}
                  aria-label={`${t(`admin.walletConfig.features.${row.feature_type}`, { defaultValue: row.feature_type })} ${t("admin.walletConfig.tokensPerUnit")}`}
                  onChange={(e) =>
                    setPricing((rows) => rows.map((r, j) => (j === i ? { ...r, tokens_per_unit: e.target.value } : r)))
                  }
                />
              </td>
            </tr>
          )}
        </Table>
      </Panel>
      <Panel title={t("admin.walletConfig.tiersTitle")}>
        <Table
          testId="tiers-table"
          headers={[
            t("admin.walletConfig.tierNumber"),
            t("admin.walletConfig.tierName"),
            ...TIER_NUMBERS.map((key) => t(`admin.walletConfig.${key}`)),
            t("admin.walletConfig.daily_cap"),
          ]}
          rows={tiers}
        >
          {(row, i) => (
            <tr key={row.tier_number}>
              <td>{row.tier_number}</td>
              <td>
                <input
                  className="input admin-cell-input admin-cell-input--wide"
                  value={row.tier_name}
                  disabled={!editable}
                  aria-label={`${t("admin.walletConfig.tierNumber")} ${row.tier_number} ${t("admin.walletConfig.tierName")}`}
                  onChange={(e) => setTier(i, "tier_name", e.target.value)}
                />
              </td>
              {TIER_NUMBERS.map((key) => (
                <td key={key}>
                  <input
                    className="input admin-cell-input"
                    type="number"
                    min={key.endsWith("_coins") ? 0 : 1}
                    step={1}
                    value={row[key]}
                    disabled={!editable}
                    aria-label={`${t("admin.walletConfig.tierNumber")} ${row.tier_number} ${t(`admin.walletConfig.${key}`)}`}
                    onChange={(e) => setTier(i, key, e.target.value)}
                  />
                </td>
              ))}
              <td>
                <input
                  className="input admin-cell-input"
                  type="number"
                  min={1}
                  step={1}
                  value={row.daily_cap ?? ""}
                  placeholder={t("admin.walletConfig.noCap")}
                  disabled={!editable}
                  aria-label={`${t("admin.walletConfig.tierNumber")} ${row.tier_number} ${t("admin.walletConfig.daily_cap")}`}
                  onChange={(e) => setTier(i, "daily_cap", e.target.value)}
                />
              </td>
            </tr>
          )}
        </Table>
      </Panel>
      {editable && (
        // Stays on screen at the bottom while the tables scroll, saying whether anything is unsaved.
        <div className="admin-toolbar admin-savebar" data-dirty={dirty || undefined}>
          <span className="admin-savebar__state" role="status" data-testid="unsaved-state">
            {dirty ? t("admin.walletConfig.unsaved") : t("admin.walletConfig.allSaved")}
          </span>
          <button type="button" className="btn btn--primary" onClick={() => void save()} disabled={saving || !data}>
            {saving ? t("admin.common.saving") : t("admin.walletConfig.save")}
          </button>
        </div>
      )}
    </div>
  );
}
