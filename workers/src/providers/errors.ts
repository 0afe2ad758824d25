/**
 * The one error every provider throws. `retryable` tells the job whether BullMQ should try
 * again (429, 5xx, timeouts, network) or give up at once (bad request, refusal, malformed reply).
 */
export interface ProviderErrorOptions {
  retryable: boolean;
  /** How long the provider asked us to wait (Retry-After), when it said. */
  retryAfterMs?: number;
  /** HTTP status of the provider's answer, when there was one. */
  status?: number;
  cause?: unknown;
}

export class ProviderError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly status?: number;

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderError";
    this.retryable = options.retryable;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.status !== undefined) this.status = options.status;
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
