/** The public price list (storefront.php): read once per page load, shared by every screen that shows money. */
import type { StorefrontInfo } from "@storefront/shared";
import { get } from "./client";

let loading: Promise<StorefrontInfo> | null = null;

export function storefront(): Promise<StorefrontInfo> {
  if (!loading) {
    loading = get<StorefrontInfo>("storefront.php");
    // A failed read is tried again by the next screen that needs it.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}
