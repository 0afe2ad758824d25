import type { Logger } from "../logger";
import { OfflineBilling } from "./offline";
import type { OperatorBilling } from "./types";

export type { BillingRequest, BillingResult, OperatorBilling } from "./types";
export { OfflineBilling, type OfflineBillingOptions } from "./offline";

/**
 * The built-in billings OPERATOR_BILLING names: `offline` (the default) accepts the renewals of
 * packages administrators assign and sells nothing to subscribers; `offline-demo` also sells to
 * subscribers, for nothing (demo and test stacks only).
 */
export const OPERATOR_BILLINGS = ["offline", "offline-demo"] as const;
export type OperatorBillingName = (typeof OPERATOR_BILLINGS)[number];

let current: OperatorBilling | undefined;

/** A built-in billing; `OFFLINE_BILLING_DECLINE_ABOVE` makes it decline larger amounts (tests, demos). */
export function builtInBilling(name: OperatorBillingName, env: NodeJS.ProcessEnv = process.env): OfflineBilling {
  const limit = Number(env.OFFLINE_BILLING_DECLINE_ABOVE || Number.POSITIVE_INFINITY);
  return new OfflineBilling({
    selfPurchase: name === "offline-demo",
    decline: (request) => (request.amount > limit ? "the operator declined the charge (insufficient credit)" : null),
  });
}

/**
 * The process's operator billing (renewals in the workers, purchases in the API): the one
 * `startOperatorBilling` chose at start, else the plain offline one, which sells nothing to
 * subscribers (docs/operations.md "Selling coins: operator billing").
 */
export function operatorBilling(): OperatorBilling {
  current ??= builtInBilling("offline");
  return current;
}

/**
 * At process start (API, workers): puts in the billing `name` (OPERATOR_BILLING) or the one given
 * (a real carrier or payment provider), and says in the log which one and whether subscribers can buy.
 */
export function startOperatorBilling(
  choice: OperatorBillingName | OperatorBilling,
  log: Pick<Logger, "info" | "warn">,
): OperatorBilling {
  const billing = typeof choice === "string" ? builtInBilling(choice) : choice;
  current = billing;
  const fields = { operatorBilling: billing.name, subscriberPurchases: billing.sellsToSubscribers };
  if (billing instanceof OfflineBilling && billing.sellsToSubscribers)
    log.warn(fields, "operator billing: offline demo store; subscribers' purchases and renewals are accepted WITHOUT payment");
  else if (billing instanceof OfflineBilling)
    log.info(
      fields,
      "operator billing: offline; subscribers cannot buy packages (wallet/buy.php answers 503), assigned packages renew",
    );
  else log.info(fields, "operator billing");
  return billing;
}

/** Lets tests put their own billing in (undefined: back to the default). */
export function setOperatorBilling(billing: OperatorBilling | undefined): void {
  current = billing;
}
