/**
 * The one HTTP client every throughput measurement uses (node:http with keep-alive sockets, one
 * per lane), a fixed-concurrency runner and percentile maths, so the bare baseline and the API
 * are driven exactly alike.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";

export interface HttpReply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

export class BenchClient {
  private readonly agent: http.Agent;

  /** `localAddress`: the loopback address its connections come from (a client of its own to the front). */
  constructor(maxSockets: number, localAddress?: string) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets, ...(localAddress ? { localAddress } : {}) });
  }

  post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpReply> {
    return this.request("POST", url, Buffer.from(JSON.stringify(body)), headers);
  }

  /** A POST of an exact JSON text (what a signature covers). */
  postRaw(url: string, body: string, headers: Record<string, string> = {}): Promise<HttpReply> {
    return this.request("POST", url, Buffer.from(body), headers);
  }

  get(url: string, headers: Record<string, string> = {}): Promise<HttpReply> {
    return this.request("GET", url, undefined, headers);
  }

  /**
   * One request; sent once more when it went out on a kept-alive socket that the server had just
   * closed for being idle (its keepAliveTimeout, 5 s, passes while a phase drives another server),
   * as Node's documentation advises: that request never reached the server.
   */
  private async request(
    method: string,
    url: string,
    payload: Buffer | undefined,
    headers: Record<string, string>,
  ): Promise<HttpReply> {
    try {
      return await this.send(method, url, payload, headers);
    } catch (error) {
      if (!(error as { reusedSocket?: boolean }).reusedSocket) throw error;
      return this.send(method, url, payload, headers);
    }
  }

  private send(method: string, url: string, payload: Buffer | undefined, headers: Record<string, string>): Promise<HttpReply> {
    const bodyHeaders: Record<string, string> = payload
      ? { "content-type": "application/json", "content-length": String(payload.length) }
      : {};
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method,
          agent: this.agent,
          headers: { ...bodyHeaders, ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), headers: res.headers }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) =>
        reject(
          Object.assign(error, {
            reusedSocket: req.reusedSocket && (error.code === "ECONNRESET" || error.message === "socket hang up"),
          }),
        ),
      );
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface LoadResult {
  requests: number;
  failures: number;
  wallMs: number;
  latenciesMs: number[];
  firstFailure?: string;
}

/**
 * Runs `count` calls, `concurrency` at a time; each lane runs its calls one after another. A
 * call returns an error text on failure (kept out of the latencies) or undefined on success.
 */
export async function runLoad(
  count: number,
  concurrency: number,
  call: (index: number, lane: number) => Promise<string | undefined>,
): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  let next = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      while (next < count) {
        const index = next++;
        const t0 = performance.now();
        const failure = await call(index, lane).catch((error: unknown) => (error as Error).message);
        if (failure === undefined) latenciesMs.push(performance.now() - t0);
        else {
          failures += 1;
          firstFailure ??= failure;
        }
      }
    }),
  );
  return {
    requests: count,
    failures,
    wallMs: performance.now() - started,
    latenciesMs,
    ...(firstFailure ? { firstFailure } : {}),
  };
}

/** Nearest-rank percentile of unsorted samples. */
function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

export function summarise(samples: readonly number[]): Summary {
  const mean = samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length);
  return { n: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), mean };
}

export function requestsPerSecond(result: LoadResult): number {
  return (result.requests - result.failures) / (result.wallMs / 1000);
}
