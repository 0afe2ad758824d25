/** SPEC §2 Wallet Config: explanation, token pricing table, tier packages table, Save Configuration. */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { tierTableProblems, type PricingRow, type TierRow } from "@storefront/shared";
import { useToast } from "../../../components/Toasts";
import { adminApi } from "../adminApi";
import { adminKeys, adminQueries, useAdminMutation, useAdminQuery } from "../queries";
import { errorText, Panel, useCan } from "../ui";
import { PricingTable, TIER_NUMBERS, TiersTable, type Cell, type EditRow } from "./walletConfig/tables";

/** SPEC §5: every value an integer; tokens at least 1, coin bounds at least 0. */
function isInt(value: Cell, min: number): boolean {
  const text = String(value).trim();
  return /^-?\d+$/u.test(text) && Number(text) >= min;
}

/** The first problem of the edited tables in this language's words, or "" when they can be saved. */
function problemOf(pricing: EditRow<PricingRow>[], tiers: EditRow<TierRow>[], t: TFunction): string {
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

/** The tables as text (an input gives "5" for 5), to tell unsaved edits apart from what the server holds. */
const snapshot = (p: EditRow<PricingRow>[], tr: EditRow<TierRow>[]) =>
  JSON.stringify([p, tr], (_key, value: unknown) => (typeof value === "number" ? String(value) : (value ?? "")));

export default function WalletConfig() {
  const { t } = useTranslation();
  const toast = useToast();
  const can = useCan();
  const editable = can("wallet_config:edit");
  const { data } = useAdminQuery(adminQueries.walletConfig(), t("admin.walletConfig.loadFailed"));
  const save = useAdminMutation(adminApi.saveWalletConfig, [adminKeys.walletConfig]);
  const [pricing, setPricing] = useState<EditRow<PricingRow>[]>([]);
  const [tiers, setTiers] = useState<EditRow<TierRow>[]>([]);
  const [problem, setProblem] = useState("");
  const [saved, setSaved] = useState("");
  const dirty = saved !== "" && snapshot(pricing, tiers) !== saved;

  // The server's tables fill the form when they arrive, but never over unsaved edits.
  useEffect(() => {
    if (!data || dirty) return;
    setPricing(data.pricing.map((r) => ({ ...r })));
    setTiers(data.tiers.map((r) => ({ ...r })));
    setSaved(snapshot(data.pricing, data.tiers));
  }, [data, dirty]);

  // Leaving the page (reload, closing the tab) with unsaved edits asks first.
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [dirty]);

  async function submit() {
    const found = problemOf(pricing, tiers, t);
    setProblem(found);
    if (found) return;
    try {
      // An empty daily cap is "no default cap" for the tier.
      const cleaned = tiers.map((r) => ({ ...r, daily_cap: String(r.daily_cap ?? "").trim() === "" ? null : r.daily_cap }));
      await save.mutateAsync({ pricing, tiers: cleaned });
      setSaved(snapshot(pricing, tiers));
      toast.success(t("admin.walletConfig.saved"));
    } catch (caught) {
      const server = errorText(caught, "");
      if (server) setProblem(server);
      toast.error(t("admin.walletConfig.saveFailed"));
    }
  }

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
        <PricingTable
          rows={pricing}
          editable={editable}
          onChange={(index, value) =>
            setPricing((rows) => rows.map((r, j) => (j === index ? { ...r, tokens_per_unit: value } : r)))
          }
        />
      </Panel>
      <Panel title={t("admin.walletConfig.tiersTitle")}>
        <TiersTable
          rows={tiers}
          editable={editable}
          onChange={(index, key, value) =>
            setTiers((rows) => rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)))
          }
        />
      </Panel>
      {editable && (
        // Stays on screen at the bottom while the tables scroll, saying whether anything is unsaved.
        <div className="admin-toolbar admin-savebar" data-dirty={dirty || undefined}>
          <span className="admin-savebar__state" role="status" data-testid="unsaved-state">
            {dirty ? t("admin.walletConfig.unsaved") : t("admin.walletConfig.allSaved")}
          </span>
          <button type="button" className="btn btn--primary" onClick={() => void submit()} disabled={save.isPending || !data}>
            {save.isPending ? t("admin.common.saving") : t("admin.walletConfig.save")}
          </button>
        </div>
      )}
    </div>
  );
}
