import { useEffect, useState } from "react";
import type { StorefrontInfo } from "@storefront/shared";
import { storefront } from "../api/storefront";
import { useFormat } from "./useFormat";

/** The public price list and settings (currency, phone country), or null until it has come (or when it failed). */
export function useStorefront(): StorefrontInfo | null {
  const [info, setInfo] = useState<StorefrontInfo | null>(null);
  useEffect(() => {
    let live = true;
    storefront().then(
      (found) => live && setInfo(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return info;
}

/** The configured currency (ISO 4217), or null until known. */
function useCurrency(): string | null {
  return useStorefront()?.currency ?? null;
}

/** Formats amounts of money in the configured currency and the interface language (useFormat's `money`). */
export function useMoney(): (amount: number, digits?: number) => string {
  const format = useFormat();
  const currency = useCurrency();
  return (amount, digits) => format.money(amount, currency, digits);
}
