/**
 * Every way value reaches a subscriber without being paid for at its price, written down once.
 * Each one needs VALUE_PERMISSION. A route names its way with `grants` (api/src/routes/define.ts):
 * "always" adds the permission to the route's own check; "change" means the route's service
 * decides per change (packageValueChange below) and asks for the permission only then.
 * tests/integration/value-paths.test.ts walks every one as each role.
 */
import type { AdminPermission } from "./permissions";

export const VALUE_PERMISSION: AdminPermission = "coins:grant";

export const UNPAID_VALUE = {
  balance: { when: "always", what: "setting a subscriber's coins (admin/update-user-tier.php)" },
  tier: {
    when: "always",
    what: "setting a subscriber's tier floor, which raises the tier's allowances (admin/update-user-tier.php)",
  },
  assignment: {
    when: "always",
    what: "assigning a package: its coins at once and its renewals later (POST admin/user-packages.php)",
  },
  renewal: {
    when: "always",
    what:
      "making an administrator's assignment renew, its coins again every period (autoRenew on POST " +
      "admin/user-packages.php); a subscriber turns renewal on only for a package they bought " +
      "(PUT wallet/auto-renew.php answers 403 renewal_not_yours for an assigned one)",
  },
  package_value: {
    when: "change",
    what:
      "a package that is free, sells more coins per unit of money than every paid package on sale, gains coins, " +
      "loses price, or goes on sale while it is either of the first two (POST, PUT admin/wallet-packages-simple.php)",
  },
  redemption_codes: { when: "always", what: "making, listing and re-enabling redemption codes (admin/redemption-codes.php)" },
  pricing: {
    when: "always",
    what: "feature prices and tier tables: cheaper use, or a tier reached with fewer coins (PUT admin/wallet-config.php)",
  },
  job_retry: {
    when: "always",
    what:
      "retrying a job or adding one by hand (POST admin/queues.php, Bull Board's actions): the worker refuses a " +
      "refunded job, but a completed one whose kept result expired, or a job added with written-up data, runs unpaid",
  },
} as const satisfies Record<string, { when: "always" | "change"; what: string }>;

export type UnpaidValue = keyof typeof UNPAID_VALUE;

/**
 * The smallest unit of the currency packages are priced in (SPEC §5: price step 0.01). Prices are
 * whole numbers of it, held as integer minor units wherever they are compared.
 */
export const PRICE_MINOR_UNITS = 100;

/** A price in minor units, or null when it is not a whole number of them (never rounded). */
export function priceInMinorUnits(price: number): number | null {
  const scaled = price * PRICE_MINOR_UNITS;
  const whole = Math.round(scaled);
  // Decimal input such as 2.3 is 229.99999999999997 in binary: a hair's difference is the same price.
  return Math.abs(scaled - whole) < 1e-6 ? whole : null;
}

/** The terms of a package that decide what a subscriber gets for their money. */
export interface PackageTerms {
  coins: number;
  /** In the currency's units (a whole number of minor units). */
  price: number;
  status: "active" | "inactive";
}

/** Whether `a` sells more coins per unit of money than `b` (both paid), exactly, in integers. */
function sellsMoreThan(a: PackageTerms, b: PackageTerms): boolean {
  return a.coins * priceInMinorUnits(b.price)! > b.coins * priceInMinorUnits(a.price)!;
}

const isFree = (terms: PackageTerms) => terms.coins > 0 && terms.price === 0;

/**
 * Why a package change gives subscribers more for their money (null when it does not): `before`
 * is null for a new package; `onSale` is every other paid package on sale now. A package with no
 * coins gives nothing, whatever its price.
 */
export function packageValueChange(
  before: PackageTerms | null,
  after: PackageTerms,
  onSale: readonly PackageTerms[],
): string | null {
  if (isFree(after)) return "a free package";
  if (before && after.coins > before.coins) return `coins raised from ${before.coins} to ${after.coins}`;
  if (before && after.coins > 0 && after.price < before.price) return `price lowered from ${before.price} to ${after.price}`;
  const goesOnSale = after.status === "active" && after.coins > 0 && before?.status !== "active";
  if (!goesOnSale) return null;
  const paid = onSale.filter((p) => p.status === "active" && p.price > 0 && p.coins > 0);
  if (paid.length === 0) return "the first paid package on sale";
  if (paid.every((p) => sellsMoreThan(after, p))) return "more coins per unit of money than any package on sale";
  return null;
}
