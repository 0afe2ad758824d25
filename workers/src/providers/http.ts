/**
 * The HTTP plumbing every provider shares: one timeout per call, and one mapping from what
 * the wire said to a ProviderError (retry 429/408/5xx/timeouts/network; never 4xx or garbage).
 */
import { ProviderError } from "./errors";

export interface ProviderCallOptions {
  /** Provider name for messages ("openai", "runway"). */
  provider: string;
  timeoutMs: number;
  /** The caller's cancel signal (worker shutdown, job abort). */
  signal?: AbortSignal;
}

/** Joins a base URL and a path, keeping the base's own path and query (Azure's ?api-version=). */
export function joinUrl(base: string, path: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/u, "")}/${path.replace(/^\/+/u, "")}`;
  return url.toString();
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/u.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

const RETRYABLE_STATUS = new Set([408, 409, 425, 429]);

/** The provider's own error text, from an OpenAI/Runway-style JSON body or plain text. */
function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
    if (parsed.error && typeof parsed.error === "object" && "message" in parsed.error) {
      return String((parsed.error as { message: unknown }).message);
    }
    if (typeof parsed.message === "string") return parsed.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.slice(0, 300);
}

/** Turns a non-OK response into the ProviderError the job's retry logic reads. */
export async function errorFromResponse(provider: string, response: Response): Promise<ProviderError> {
  const body = await response.text().catch(() => "");
  const status = response.status;
  const retryable = status >= 500 || RETRYABLE_STATUS.has(status);
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
  const text = errorText(body) || response.statusText;
  return new ProviderError(`${provider} answered ${status}: ${text}`, {
    retryable,
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** A signal that fires on the caller's abort or after the timeout, and tells which one fired. */
export function callSignal(options: ProviderCallOptions): { signal: AbortSignal; timedOut: () => boolean } {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  return { signal, timedOut: () => timeout.aborted && !options.signal?.aborted };
}

/** Maps a thrown fetch/stream error to a ProviderError (timeouts and network faults retry). */
export function errorFromThrown(error: unknown, options: ProviderCallOptions, timedOut: boolean): Error {
  if (error instanceof ProviderError) return error;
  if (timedOut) {
    return new ProviderError(`${options.provider} did not answer within ${options.timeoutMs} ms`, {
      retryable: true,
      cause: error,
    });
  }
  // The caller cancelled: pass its reason through untouched so it is not mistaken for a provider fault.
  if (options.signal?.aborted) return error instanceof Error ? error : new Error(String(error));
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`${options.provider} could not be reached: ${message}`, { retryable: true, cause: error });
}

/** fetch with the timeout and error mapping; resolves only with an OK response. */
export async function providerFetch(url: string, init: RequestInit, options: ProviderCallOptions): Promise<Response> {
  const { signal, timedOut } = callSignal(options);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal });
  } catch (error) {
    throw errorFromThrown(error, options, timedOut());
  }
  if (!response.ok) throw await errorFromResponse(options.provider, response);
  return response;
}

/** Reads a JSON body within the same timeout; a body that is not JSON is a permanent fault. */
export async function readJson(response: Response, options: ProviderCallOptions): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (options.signal?.aborted) throw error;
    // The body stream broke: the connection dropped or the call's timeout fired mid-body.
    const message = error instanceof Error ? error.message : String(error);
    throw new ProviderError(`${options.provider} reply was cut off: ${message}`, { retryable: true, cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError(`${options.provider} sent a reply that is not JSON: ${text.slice(0, 120)}`, {
      retryable: false,
    });
  }
}

/** Reads a binary body within the call's timeout; a broken stream is retryable. */
export async function readBytes(response: Response, options: ProviderCallOptions): Promise<Buffer> {
  try {
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ProviderError(`${options.provider} download was cut off: ${message}`, { retryable: true, cause: error });
  }
}

export function malformed(provider: string, what: string): ProviderError {
  return new ProviderError(`${provider} sent a malformed reply: ${what}`, { retryable: false });
}
