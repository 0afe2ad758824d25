/** What every outbound SMS sender (HTTP gateway, SMPP) promises its caller. */
export interface OutboundSms {
  /** Subscriber phone, as it reached us. */
  to: string;
  text: string;
  /** Our stable id of this message (retries reuse it so a gateway can drop duplicates). */
  reference: string;
  /** HTTP to Kannel or Jasmin: where the gateway sends this message's receipt (carries its token). */
  receiptUrl?: string;
}

export interface SendResult {
  /** The gateway's id of the accepted message, when it gave one. */
  gatewayMessageId: string | null;
  /** SMPP, a message sent in several parts: the ids of the parts after the first. */
  partIds?: string[];
  /** The gateway's answer as text, stored as gateway_response. */
  response: string;
}

/** A send that did not go through; `retryable` for 5xx, timeouts, throttling and lost links. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly response = "",
  ) {
    super(message);
    this.name = "GatewayError";
  }
}

export interface RetryPolicy {
  attempts: number;
  /** First wait; doubled after every failed attempt. */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500 };

/** Runs a send, retrying retryable GatewayErrors with exponential backoff. */
export async function withRetries<T>(send: (attempt: number) => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  let last: unknown;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    try {
      return await send(attempt);
    } catch (error) {
      last = error;
      const retryable = error instanceof GatewayError ? error.retryable : false;
      if (!retryable || attempt === policy.attempts) throw error;
      await new Promise((r) => setTimeout(r, policy.baseDelayMs * 2 ** (attempt - 1)));
    }
  }
  throw last;
}
