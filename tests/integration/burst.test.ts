/**
 * Bursts of new connections are answered, never reset (issue 33): 2,000 clients open a connection
 * each at once, on a stack of this file's own, both through the one port that `npm start` keeps for
 * several API processes (scripts/lib/front.ts) and on an API process's own port (npm start's
 * default on two cores: one API process, listening itself). Every one must get an HTTP answer: 200,
 * or 503 with Retry-After past the documented bound; a reset or a hang-up fails the test.
 *
 * All traffic goes to 127.0.0.0/8 and is bounded (2,000 connections a burst, three bursts). It runs
 * alone (vitest.config.ts): a burst beside other files would slow them and measure them as well.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/infra";
import { startStack, type Stack } from "../../scripts/lib/stack";

const BURST = 2000;

let stack: Stack;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "storefront-burst-"));
  stack = await startStack({
    dataDir,
    persist: false,
    logDir: path.resolve("test-artifacts/logs/burst"),
    apiProcesses: 2,
    port: await freePort(),
    // /api/health needs no worker.
    workers: [],
    env: { NODE_ENV: "test", SESSION_SECRET: "burst-test-session-secret-0123456789", LOG_LEVEL: "warn" },
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Outcome {
  status?: number;
  retryAfter?: string;
  error?: string;
}

/** GET /api/health on a connection of its own, from `localAddress`. */
function healthOnNewConnection(url: string, localAddress: string): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const req = request(
      { host: hostname, port, localAddress, path: "/api/health", agent: false, headers: { connection: "close" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, retryAfter: String(res.headers["retry-after"] ?? "") }));
        res.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

/** `BURST` connections at once from `addresses` (in turn); a tally of what they got. */
async function burst(url: string, addresses: string[]): Promise<Record<string, number>> {
  const outcomes = await Promise.all(
    Array.from({ length: BURST }, (_, i) => healthOnNewConnection(url, addresses[i % addresses.length]!)),
  );
  const tally: Record<string, number> = {};
  for (const outcome of outcomes) {
    // A 503 counts as answered only with its Retry-After.
    const key =
      outcome.error ?? (outcome.status === 503 && !outcome.retryAfter ? "503 without Retry-After" : String(outcome.status));
    tally[key] = (tally[key] ?? 0) + 1;
  }
  return tally;
}

/** What a burst may get: 200s, and 503s with Retry-After; nothing else. */
function expectAllAnswered(tally: Record<string, number>): void {
  const answered = (tally["200"] ?? 0) + (tally["503"] ?? 0);
  expect(tally).toEqual(Object.fromEntries(Object.entries(tally).filter(([key]) => key === "200" || key === "503")));
  expect(answered).toBe(BURST);
}

const manyAddresses = Array.from({ length: 40 }, (_, i) => `127.0.0.${i + 1}`);

describe(`a burst of ${BURST} new connections`, () => {
  it("through the front of two API processes, from 40 addresses: every one answered, none reset", async () => {
    const tally = await burst(stack.url, manyAddresses);
    expectAllAnswered(tally);
    // Far below the front's bound (80% of its open-file limit): all served, none refused.
    expect(tally["200"]).toBe(BURST);
  }, 120_000);

  it("through the front, all from one address (as behind a proxy or a carrier's NAT): every one answered", async () => {
    const tally = await burst(stack.url, ["127.0.0.1"]);
    expectAllAnswered(tally);
    expect(tally["200"]).toBe(BURST);
  }, 120_000);

  it("on one API process's own port (npm start's default on two cores): every one answered", async () => {
    const tally = await burst(stack.apiUrls[0]!, manyAddresses);
    expectAllAnswered(tally);
    expect(tally["200"]).toBe(BURST);
  }, 120_000);
});
