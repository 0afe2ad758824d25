/**
 * Coins and tier (SPEC §2 Dashboard): the tier icon and colour come from TIER_STYLES; clicking the
 * icon reloads; hidden when loading fails (with SPEC §8's toast).
 */
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { TIER_STYLES } from "@storefront/shared";
import { useFormat } from "../hooks/useFormat";
import { useServerEvent } from "../hooks/useServerEvent";
import { useWallet } from "../hooks/useWallet";
import { AppLink } from "./AppLink";
import { PlusIcon, TierIcon } from "./toolIcons";
import { useToast } from "./Toasts";
import "./WalletBadge.css";

export function WalletBadge() {
  const { t } = useTranslation();
  const format = useFormat();
  const toast = useToast();
  const wallet = useWallet();

  useEffect(() => {
    if (wallet.isError) toast.error(t("wallet.loadFailed"));
  }, [wallet.isError, toast, t]);
  // Sent once per crossing below the threshold: the notice says how to get coins.
  useServerEvent("wallet:low", (event) =>
    toast.warning(t("wallet.low", { coins: format.number(event.coins), threshold: format.number(event.threshold) })),
  );

  if (wallet.isError) return null;
  if (!wallet.data) {
    return (
      <div className="wallet-badge wallet-badge--loading" aria-busy="true">
        <span className="visually-hidden">{t("wallet.loading")}</span>
        <span className="wallet-badge__skeleton" aria-hidden="true" />
      </div>
    );
  }

  const { coins } = wallet.data.wallet;
  const tier = wallet.data.tierInfo;
  const style = TIER_STYLES[Math.min(10, Math.max(1, tier.currentTier)) - 1] ?? TIER_STYLES[0]!;
  const tierLabel = t("wallet.tierLabel", {
    tier: format.number(tier.currentTier),
    name: t(`tiers.${tier.currentTier}`, { defaultValue: tier.currentTierName }),
  });

  return (
    <div className="wallet-badge" style={{ ["--tier-color" as string]: style.color }} data-testid="wallet-badge">
      <button
        type="button"
        className="wallet-badge__tier"
        onClick={() => void wallet.refetch()}
        title={t("wallet.refresh")}
        aria-label={`${tierLabel}. ${t("wallet.refresh")}`}
        data-tier={tier.currentTier}
      >
        <span aria-hidden="true" className={wallet.isFetching ? "wallet-badge__icon spinning" : "wallet-badge__icon"}>
          <TierIcon tier={tier.currentTier} size={18} />
        </span>
      </button>
      <span className="wallet-badge__coins" data-testid="wallet-coins">
        {t("wallet.coins", { coins: format.number(coins) })}
      </span>
      <span className="wallet-badge__tier-name">{t(`tiers.${tier.currentTier}`, { defaultValue: tier.currentTierName })}</span>
      <AppLink to="/get-coins" className="wallet-badge__add" aria-label={t("getCoins.link")} title={t("getCoins.link")}>
        <PlusIcon size={16} />
      </AppLink>
    </div>
  );
}
