import { OfflineBilling } from "./offline";
import type { OperatorBilling } from "./types";

export type { BillingRequest, BillingResult, OperatorBilling } from "./types";
export { OfflineBilling, type OfflineBillingOptions } from "./offline";

let current: OperatorBilling | undefined;

/**
 * The process's operator billing (renewals in the workers, purchases in the API): the offline
 * implementation until a real operator or payment provider is wired in (docs/operations.md).
 * `OFFLINE_BILLING_DECLINE_ABOVE` makes the offline one decline larger amounts (tests, demos).
 */
export function operatorBilling(): OperatorBilling {
  const limit = Number(process.env.OFFLINE_BILLING_DECLINE_ABOVE ?? Number.POSITIVE_INFINITY);
  current ??= new OfflineBilling({
    decline: (request) => (request.amount > limit ? "the operator declined the charge (insufficient credit)" : null),
  });
  return current;
}

/** Lets tests put their own billing in. */
export function setOperatorBilling(billing: OperatorBilling): void {
  current = billing;
}
