import { OfflineBilling } from "./offline";
import type { OperatorBilling } from "./types";

export type { BillingRequest, BillingResult, OperatorBilling } from "./types";
export { OfflineBilling, type OfflineBillingOptions } from "./offline";

let current: OperatorBilling | undefined;

/** The process's operator billing: the offline implementation until a real operator is wired in. */
export function operatorBilling(): OperatorBilling {
  current ??= new OfflineBilling();
  return current;
}
