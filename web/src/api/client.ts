/**
 * The one fetch wrapper of the web app (SPEC §7): same-origin /api, credentials always sent,
 * JSON bodies, and errors that carry the body's `error` field or "HTTP {status}".
 */
import { isErrorCode, type ErrorCode } from "@storefront/shared";

const API_BASE = "/api";

/** The JSON error body of SPEC §7/§8, with the 402 figures when the wallet is short. */
export interface ErrorBody {
  success?: false;
  error?: string;
  code?: string;
  field?: string;
  needed?: number;
  available?: number;
  /** 402 daily_cap_reached: the cap and what was spent today. */
  cap?: number;
  spent?: number;
  /** 429: seconds until the call may be tried again (also the Retry-After header). */
  retryAfter?: number;
  /** 504, and 503 of a frozen worker: the job the call started, which carries on or stays queued. */
  jobId?: string;
  /** 503 of a frozen worker: the coins were returned and the job is still queued (charged if it runs). */
  refunded?: boolean;
  queued?: boolean;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The server's own error text (not the "HTTP {status}" fallback), when it sent one. English: show `code`'s text instead. */
  get serverError(): string | undefined {
    return this.body.error;
  }

  /** The stable code of the error (api/src/errors.ts), when the server sent one this client knows. */
  get code(): ErrorCode | undefined {
    return isErrorCode(this.body.code) ? this.body.code : undefined;
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  query?: Query;
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export function apiUrl(path: string, query?: Query): string {
  const url = `${API_BASE}/${path.replace(/^\//u, "")}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const init: RequestInit = { method: options.method ?? "GET", credentials: "include", signal: options.signal };
  if (options.body instanceof FormData) init.body = options.body;
  else if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    init.headers = { "Content-Type": "application/json" };
  }
  // The server writes the texts it must write itself (a 429's "try again in 5 minutes") in the app's language.
  const language = document.documentElement.lang || "en";
  init.headers = { ...(init.headers as Record<string, string> | undefined), "Accept-Language": language, ...options.headers };
  const res = await fetch(apiUrl(path, options.query), init);
  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!res.ok) {
    const body: ErrorBody = parsed && typeof parsed === "object" ? (parsed as ErrorBody) : {};
    throw new ApiError(body.error ?? `HTTP ${res.status}`, res.status, body);
  }
  return parsed as T;
}

export const get = <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>(path, { query, signal });
export const post = <T>(path: string, body?: unknown, signal?: AbortSignal) =>
  request<T>(path, { method: "POST", body: body ?? {}, signal });
