/**
 * The home page's prices (issue 36): what each tool costs in coins under the live pricing table, the
 * packages on offer with their price, and what a new account starts with, before anyone signs up.
 * Its own chunk, loaded after the page shows, so the home page's first JavaScript stays as it was.
 */
import { useTranslation } from "react-i18next";
import type { StorefrontInfo } from "@storefront/shared";
import { useFormat } from "../../hooks/useFormat";
import { useStorefront } from "../../hooks/useStorefront";

function PriceList({ info }: { info: StorefrontInfo }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <>
      <p className="home-prices__lead">
        {t("prices.lead")}{" "}
        {info.newAccountCoins > 0
          ? t("prices.newAccountCoins", { coins: format.number(info.newAccountCoins) })
          : t("prices.newAccountNoCoins")}
      </p>
      <ul className="home-prices__tools" data-testid="tool-prices">
        {info.tools.map((tool) => (
          <li key={tool.feature} className="card home-prices__tool" data-feature={tool.feature}>
            <span className="home-prices__tool-name">{t(`prices.tools.${tool.feature}`)}</span>
            <strong>{t(`prices.per.${tool.unit}`, { coins: format.number(tool.coins), count: tool.coins })}</strong>
          </li>
        ))}
      </ul>
      <h3 className="home-prices__subtitle">{t("prices.packagesTitle")}</h3>
      {info.packages.length === 0 ? (
        <p className="home-prices__none">{t("prices.noPackages")}</p>
      ) : (
        <ul className="home-prices__packages" data-testid="package-prices">
          {info.packages.map((pkg) => (
            <li key={pkg.id} className="card home-prices__package">
              <span className="home-prices__package-name" dir="auto">
                {pkg.name}
              </span>
              <span>{t("prices.packageCoins", { coins: format.number(pkg.coins) })}</span>
              <strong className="home-prices__price">
                {t(`prices.period.${pkg.subscription_type}`, { price: format.money(pkg.price, info.currency, 2) })}
              </strong>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export default function Prices() {
  const { t } = useTranslation();
  const info = useStorefront();
  return (
    <section className="home-prices" aria-labelledby="prices-title" aria-busy={info ? undefined : true}>
      <h2 id="prices-title">{t("prices.title")}</h2>
      {info && <PriceList info={info} />}
    </section>
  );
}
