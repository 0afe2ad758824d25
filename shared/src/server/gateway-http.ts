/**
 * POSTs to the operator's HTTP SMS gateway (API Test Gateway and worker sends). The URL is
 * typed by an administrator, so the host is resolved first and every address it resolves to
 * must be public unless SMS_GATEWAY_ALLOW_PRIVATE allows private ones; the request then goes
 * to the address that was checked, so a second DNS answer (rebinding) cannot swap it.
 * Redirects are not followed: they would lead the request, password included, elsewhere.
 */
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isPublicAddress, parseIp } from "../ip-address";

export interface GatewayTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type GatewayTargetResult = { ok: true; target: GatewayTarget } | { ok: false; reason: string };

/** SMS_GATEWAY_ALLOW_PRIVATE, for callers without the parsed config (the worker's gateway module). */
export function smsGatewayAllowPrivate(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(true|1)$/u.test(env.SMS_GATEWAY_ALLOW_PRIVATE ?? "");
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Checks the URL's host against the address policy and picks the address to connect to. */
export async function resolveGatewayTarget(
  urlText: string,
  options: { allowPrivate: boolean; resolve?: Resolver },
): Promise<GatewayTargetResult> {
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    return { ok: false, reason: "gateway_url is not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "gateway_url must be http(s)" };
  const host = url.hostname.replace(/^\[(.*)\]$/u, "$1");
  let addresses: Array<{ address: string; family: number }>;
  if (parseIp(host)) {
    addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch (error) {
      return { ok: false, reason: `gateway host not found (${(error as { code?: string }).code ?? "DNS error"})` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: "gateway host not found" };
  for (const { address } of addresses) {
    const bytes = parseIp(address);
    if (!bytes) return { ok: false, reason: "gateway host resolved to an unreadable address" };
    if (!options.allowPrivate && !isPublicAddress(bytes)) {
      return {
        ok: false,
        reason: `gateway address ${address} is loopback, link-local or private; set SMS_GATEWAY_ALLOW_PRIVATE=true to allow it`,
      };
    }
  }
  const first = addresses[0]!;
  return { ok: true, target: { url, address: first.address, family: first.family === 6 ? 6 : 4 } };
}

export class GatewayHttpError extends Error {
  constructor(
    message: string,
    readonly code: "timeout" | "network",
  ) {
    super(message);
  }
}

export interface GatewayHttpResponse {
  status: number;
  /** The first `maxBytes` of the answer (never shown to administrators by the Test action). */
  text: string;
}

/**
 * One POST (or GET: Kannel's sendsms takes its fields in the query string) to the checked address;
 * the Host header and TLS name stay the URL's host.
 */
export function postToGateway(
  target: GatewayTarget,
  request: { headers: Record<string, string>; body: string; method?: "GET" | "POST" },
  options: { timeoutMs: number; maxBytes?: number },
): Promise<GatewayHttpResponse> {
  const maxBytes = options.maxBytes ?? 16_384;
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(target.url, {
      method: request.method ?? "POST",
      headers: {
        ...request.headers,
        ...(request.method === "GET" ? {} : { "content-length": String(Buffer.byteLength(request.body)) }),
      },
      lookup: pinned,
    });
    const timer = setTimeout(
      () => req.destroy(new GatewayHttpError(`no answer within ${options.timeoutMs} ms`, "timeout")),
      options.timeoutMs,
    );
    req.on("error", (error: Error & { code?: string }) => {
      clearTimeout(timer);
      reject(error instanceof GatewayHttpError ? error : new GatewayHttpError(error.code ?? error.message, "network"));
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        if (size < maxBytes) chunks.push(chunk);
        size += chunk.length;
      });
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8") });
      });
      res.on("error", (error) => {
        clearTimeout(timer);
        reject(new GatewayHttpError(error.message, "network"));
      });
    });
    req.end(request.body);
  });
}
