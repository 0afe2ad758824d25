/**
 * Operator billing: how a package is paid for, when a subscriber buys it and at each renewal (SPEC
 * §4: "renewal uses operator credit"). An implementation must be idempotent per request key, so a
 * purchase or renewal retried after a crash never charges twice.
 */
export interface BillingRequest {
  /** Unique per purchase request, or per assignment and period. */
  key: string;
  userId: string;
  phone: string;
  /** Package price in the operator's currency units. */
  amount: number;
  description: string;
}

export type BillingResult = { ok: true; reference: string } | { ok: false; error: string };

export interface OperatorBilling {
  readonly name: string;
  charge(request: BillingRequest): Promise<BillingResult>;
}
