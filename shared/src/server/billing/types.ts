/**
 * Operator billing: how a package is paid for, when a subscriber buys it and at each renewal (SPEC
 * §4: "renewal uses operator credit"). An implementation must be idempotent per request key, so a
 * purchase or renewal retried after a crash never charges twice.
 */
export interface BillingRequest {
  /** Unique per purchase request, or per assignment and period. */
  key: string;
  userId: string;
  /** The account's proven number (never an unproven or missing one: the callers check). */
  phone: string;
  /** Package price in the operator's currency units. */
  amount: number;
  description: string;
}

export type BillingResult = { ok: true; reference: string } | { ok: false; error: string };

export interface OperatorBilling {
  readonly name: string;
  /**
   * Whether it really takes subscribers' money: only then may a subscriber buy a package
   * (wallet/buy.php) or turn the renewal of one on. A billing that accepts charges without
   * collecting anything (the offline one) is false, except as the demo and test store.
   */
  readonly sellsToSubscribers: boolean;
  charge(request: BillingRequest): Promise<BillingResult>;
}
