import { createHash } from "node:crypto";
import type { BillingRequest, BillingResult, OperatorBilling } from "./types";

export interface OfflineBillingOptions {
  /** Returns a decline reason for requests that should fail (tests), or null to accept. */
  decline?: (request: BillingRequest) => string | null;
  /**
   * Sell to subscribers (the demo and test store, OPERATOR_BILLING=offline-demo): purchases and
   * subscribers' renewals are then accepted without any payment. Off by default.
   */
  selfPurchase?: boolean;
  /** Answers remembered (the oldest forgotten first); 10,000 by default. */
  remember?: number;
}

/**
 * The built-in operator billing (DESIGN §5): accepts every charge unless told to decline it,
 * with a reference derived from the key, and answers a repeated key with its first answer. It
 * collects nothing, so it sells to subscribers only when made the demo store (`selfPurchase`).
 *
 * Its memory of answers is bounded: a key forgotten and charged again gets the same reference
 * (derived from the key) and the same decision (the decline rule looks at the request only), so
 * forgetting never changes an answer; the memory serves `chargedKeys` and a decline rule that
 * changes over time (tests).
 */
export class OfflineBilling implements OperatorBilling {
  readonly name: string;
  readonly sellsToSubscribers: boolean;
  private readonly answers = new Map<string, BillingResult>();
  private readonly remember: number;

  constructor(private readonly options: OfflineBillingOptions = {}) {
    this.sellsToSubscribers = options.selfPurchase === true;
    this.name = this.sellsToSubscribers ? "offline-demo" : "offline";
    this.remember = Math.max(1, options.remember ?? 10_000);
  }

  async charge(request: BillingRequest): Promise<BillingResult> {
    const known = this.answers.get(request.key);
    if (known) return known;
    const declined = this.options.decline?.(request) ?? null;
    const answer: BillingResult = declined
      ? { ok: false, error: declined }
      : { ok: true, reference: `offline-${createHash("sha256").update(request.key).digest("hex").slice(0, 16)}` };
    this.answers.set(request.key, answer);
    // A Map iterates in insertion order: its first key is the oldest answer.
    if (this.answers.size > this.remember) this.answers.delete(this.answers.keys().next().value!);
    return answer;
  }

  /** Keys charged so far (the most recent `remember` of them), for tests. */
  chargedKeys(): string[] {
    return [...this.answers.keys()];
  }
}
