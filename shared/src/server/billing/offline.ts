import { createHash } from "node:crypto";
import type { BillingRequest, BillingResult, OperatorBilling } from "./types";

export interface OfflineBillingOptions {
  /** Returns a decline reason for requests that should fail (tests), or null to accept. */
  decline?: (request: BillingRequest) => string | null;
}

/**
 * The built-in operator billing (DESIGN §5): accepts every charge unless told to decline it,
 * with a reference derived from the key, and answers a repeated key with its first answer.
 */
export class OfflineBilling implements OperatorBilling {
  readonly name = "offline";
  private readonly answers = new Map<string, BillingResult>();

  constructor(private readonly options: OfflineBillingOptions = {}) {}

  async charge(request: BillingRequest): Promise<BillingResult> {
    const known = this.answers.get(request.key);
    if (known) return known;
    const declined = this.options.decline?.(request) ?? null;
    const answer: BillingResult = declined
      ? { ok: false, error: declined }
      : { ok: true, reference: `offline-${createHash("sha256").update(request.key).digest("hex").slice(0, 16)}` };
    this.answers.set(request.key, answer);
    return answer;
  }

  /** Keys charged so far, for tests. */
  chargedKeys(): string[] {
    return [...this.answers.keys()];
  }
}
