/**
 * Get coins: the packages on offer (coins, price, period) with a confirmed Buy, and the
 * subscriber's running packages with their renewal switch. Each purchase carries its own
 * Idempotency-Key, kept across a retry of the same confirmation, so a double click or a retried
 * request never charges twice.
 */
import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ShopPackage } from "@storefront/shared";
import { ApiError } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { buyPackage, redeemCode, setAutoRenew, walletShop } from "../../api/shop";
import { announceWalletUpdate } from "../../api/wallet";
import { AppLink } from "../../components/AppLink";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { BackButton, PageHeader } from "../../components/Layout";
import { LanguageToggle } from "../../components/LanguageToggle";
import { PageLoading } from "../../components/Spinner";
import { CoinIcon } from "../../components/toolIcons";
import { useToast } from "../../components/Toasts";
import { WalletBadge } from "../../components/WalletBadge";
import { useFormat } from "../../hooks/useFormat";
import { useMoney } from "../../hooks/useStorefront";
import "./GetCoins.css";

const SHOP_KEY = ["wallet-shop"];

/** 128 random bits as hex (crypto.randomUUID needs a secure context; getRandomValues does not). */
function newPurchaseKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export default function GetCoins() {
  const { t } = useTranslation();
  const toast = useToast();
  const format = useFormat();
  const queryClient = useQueryClient();
  const shop = useQuery({ queryKey: SHOP_KEY, queryFn: walletShop });
  const [chosen, setChosen] = useState<ShopPackage | null>(null);
  const [buying, setBuying] = useState(false);
  const [failure, setFailure] = useState("");
  // One key per confirmed purchase; a retry after a failed answer reuses it.
  const purchaseKey = useRef<{ packageId: string; key: string } | null>(null);

  const price = useMoney();
  const period = (type: string) => t(`getCoins.period.${type}`, { defaultValue: type });

  async function confirmBuy() {
    const pkg = chosen;
    if (!pkg || buying) return;
    if (purchaseKey.current?.packageId !== pkg.id) purchaseKey.current = { packageId: pkg.id, key: newPurchaseKey() };
    setBuying(true);
    setFailure("");
    try {
      const result = await buyPackage(pkg.id, purchaseKey.current.key);
      purchaseKey.current = null;
      setChosen(null);
      toast.success(t("getCoins.bought", { coins: format.number(result.coinsAdded), name: pkg.name }));
      announceWalletUpdate();
      void queryClient.invalidateQueries({ queryKey: SHOP_KEY });
    } catch (error) {
      // A definite answer (declined, refused) ends this purchase; after an unknown outcome (no
      // answer, 5xx) trying again reuses its key, so it cannot be charged twice.
      if (error instanceof ApiError && error.status < 500) purchaseKey.current = null;
      setChosen(null);
      setFailure(errorMessage(error, t("getCoins.buyFailed")));
    } finally {
      setBuying(false);
    }
  }

  async function toggleRenew(id: string, autoRenew: boolean) {
    try {
      await setAutoRenew(id, autoRenew);
      toast.success(autoRenew ? t("getCoins.renewOn") : t("getCoins.renewOff"));
      void queryClient.invalidateQueries({ queryKey: SHOP_KEY });
    } catch (error) {
      toast.error(errorMessage(error, t("getCoins.renewFailed")));
    }
  }

  const subscriptions = shop.data?.subscriptions ?? [];
  // Buying, and turning a renewal on, are open only with a billing that takes payment and a proven number.
  const purchases = shop.data?.purchases ?? "open";
  const canBuy = purchases === "open";
  return (
    <div className="get-coins">
      <PageHeader
        title={t("getCoins.title")}
        start={<BackButton />}
        end={
          <>
            <LanguageToggle />
            <WalletBadge />
          </>
        }
      />
      <main id="main" className="get-coins__main">
        <p className="get-coins__intro">
          {t("getCoins.intro")}{" "}
          <AppLink to="/usage" className="get-coins-link">
            {t("usage.link")}
          </AppLink>
        </p>
        {failure && (
          <p className="alert alert--error" role="alert" data-testid="buy-failure">
            {failure}
          </p>
        )}
        <RedeemForm />
        {shop.data && !canBuy && <PurchasesClosed reason={purchases} />}
        {shop.isPending && <PageLoading />}
        {shop.isError && (
          <p className="alert alert--error" role="alert">
            {t("getCoins.loadFailed")}
          </p>
        )}
        {shop.data && shop.data.packages.length === 0 && <p className="empty-state">{t("getCoins.none")}</p>}
        <ul className="get-coins__grid" data-testid="packages">
          {shop.data?.packages.map((pkg) => (
            <li key={pkg.id} className="card package-card" data-package-id={pkg.id}>
              <h2 className="package-card__name" dir="auto">
                {pkg.name}
              </h2>
              <p className="package-card__coins">
                <CoinIcon size={22} />
                <span>{t("getCoins.coins", { coins: format.number(pkg.coins) })}</span>
              </p>
              <p className="package-card__price">
                {t("getCoins.price", { price: price(pkg.price) })}
                <span className="badge">{period(pkg.subscription_type)}</span>
              </p>
              {pkg.description && (
                <p className="package-card__description" dir="auto">
                  {pkg.description}
                </p>
              )}
              <button
                type="button"
                className="btn btn--primary btn--block"
                disabled={!canBuy}
                aria-describedby={canBuy ? undefined : "purchases-closed"}
                onClick={() => {
                  setFailure("");
                  setChosen(pkg);
                }}
                aria-label={t("getCoins.buyLabel", { name: pkg.name })}
              >
                {t("getCoins.buy")}
              </button>
            </li>
          ))}
        </ul>

        {subscriptions.length > 0 && (
          <section className="card get-coins__mine" aria-labelledby="mine-title">
            <h2 id="mine-title">{t("getCoins.mine")}</h2>
            <ul className="get-coins__subscriptions">
              {subscriptions.map((s) => (
                <li key={s.id} className="subscription-row">
                  <span className="subscription-row__name" dir="auto">
                    {s.package_name}
                  </span>
                  <span className="subscription-row__detail">
                    {t("getCoins.coins", { coins: format.number(s.coins) })} · {period(s.subscription_type)}
                    {s.expires_at && <> · {t("getCoins.until", { date: format.date(s.expires_at) })}</>}
                  </span>
                  <label className="admin-check subscription-row__renew">
                    <input
                      type="checkbox"
                      checked={s.auto_renew}
                      // Off is always allowed; on only for a package they bought, while buying is open.
                      disabled={!s.auto_renew && (!s.bought || !canBuy)}
                      onChange={(e) => void toggleRenew(s.id, e.target.checked)}
                    />
                    {t("getCoins.autoRenew")}
                  </label>
                  {!s.bought && !s.auto_renew && <span className="subscription-row__note">{t("getCoins.renewGiven")}</span>}
                </li>
              ))}
            </ul>
          </section>
        )}
      </main>
      <ConfirmDialog
        open={chosen !== null}
        title={t("getCoins.confirmTitle")}
        message={
          chosen
            ? t("getCoins.confirmMessage", {
                name: chosen.name,
                coins: format.number(chosen.coins),
                price: price(chosen.price),
                period: period(chosen.subscription_type),
              })
            : ""
        }
        confirmLabel={buying ? t("getCoins.buying") : t("getCoins.confirmBuy")}
        cancelLabel={t("common.cancel")}
        onConfirm={() => void confirmBuy()}
        onCancel={() => {
          setChosen(null);
          setFailure("");
        }}
      />
    </div>
  );
}

/** Why the Buy buttons are off: no billing that takes payment (OPERATOR_BILLING), or a number not proven yet. */
function PurchasesClosed({ reason }: { reason: "purchases_unavailable" | "phone_unproven" | "open" }) {
  const { t } = useTranslation();
  const unproven = reason === "phone_unproven";
  return (
    <div className="alert alert--warning get-coins__closed" role="status" id="purchases-closed" data-testid="purchases-closed">
      <strong>{unproven ? t("getCoins.unprovenTitle") : t("getCoins.unavailableTitle")}</strong>
      <p>{unproven ? t("getCoins.unproven") : t("getCoins.unavailable")}</p>
      {unproven && (
        <AppLink to="/verify-phone" className="btn btn--primary">
          {t("getCoins.proveNumber")}
        </AppLink>
      )}
    </div>
  );
}

/** A redemption code: typed loosely (dashes, spaces and case do not matter), credited at once. */
function RedeemForm() {
  const { t } = useTranslation();
  const toast = useToast();
  const format = useFormat();
  const [code, setCode] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (code.replace(/[\s-]/gu, "").length !== 20) return setError(t("getCoins.redeemFormat"));
    setBusy(true);
    setError("");
    try {
      const result = await redeemCode(code);
      setCode("");
      toast.success(t("getCoins.redeemed", { coins: format.number(result.coinsAdded) }));
      announceWalletUpdate();
    } catch (caught) {
      setError(errorMessage(caught, t("getCoins.redeemFailed")));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card get-coins__redeem" onSubmit={(e) => void submit(e)} noValidate data-testid="redeem-form">
      <label htmlFor="redeem-code" className="get-coins__redeem-label">
        {t("getCoins.redeemLabel")}
      </label>
      <div className="get-coins__redeem-row">
        <input
          id="redeem-code"
          className="input"
          dir="ltr"
          translate="no"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="XXXXX-XXXXX-XXXXX-XXXXX"
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            if (error) setError("");
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "redeem-error" : undefined}
        />
        <button type="submit" className="btn btn--primary" disabled={busy || !code.trim()}>
          {busy ? t("getCoins.redeeming") : t("getCoins.redeem")}
        </button>
      </div>
      {error && (
        <span id="redeem-error" className="field-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
