/**
 * Scale-out on one machine: two API processes and two chat worker processes on a stack of their
 * own, behind a round-robin proxy (Socket.IO on the websocket transport), and behind the one port
 * `npm start` keeps for them (scripts/lib/front.ts).
 * - A user whose socket sits on one API process receives the push for a job accepted by the other.
 * - Killing one API process and one chat worker in the middle of 100 chat calls loses no accepted
 *   job and no coin: every hold ends settled (job completed) or released (refunded), and every
 *   balance equals the sum of its ledger entries.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LedgerEntry, User, ledgerSum } from "@storefront/shared/server";
import { slotOf } from "../../scripts/lib/front";
import { freePort } from "../../scripts/lib/infra";
import { startStack, type Stack } from "../../scripts/lib/stack";
import { startRoundRobinProxy, type RoundRobinProxy } from "../peers/round-robin-proxy";
import { chatBody, Client } from "../support/client";
import { untilHoldsEnd } from "../support/holds";
import { connectSocket, until, userWithCoins } from "../support/realtime";

const METRICS_TOKEN = "scale-test-metrics-token-0123456789";
const logDir = path.resolve("test-artifacts/logs/scale");

let stack: Stack;
let proxy: RoundRobinProxy;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "storefront-scale-"));
  rmSync(logDir, { recursive: true, force: true });
  stack = await startStack({
    dataDir,
    persist: false,
    logDir,
    apiProcesses: 2,
    // The stack keeps this port and hands each client's connections to one API process, as npm start does.
    port: await freePort(),
    // Only chat calls are made: the queues this suite does not call would only add start-ups.
    workers: ["chat", "chat", "maintenance"],
    env: {
      NODE_ENV: "test",
      SESSION_SECRET: "scale-test-session-secret-0123456789",
      LOG_LEVEL: "info",
      METRICS_TOKEN,
      LOGIN_RATE_LIMIT_PER_MINUTE: "100",
      LOGIN_RATE_LIMIT_PER_IP_PER_MINUTE: "1000",
      SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR: "100000",
      // A SIGKILLed worker's job is taken over quickly; holds whose job never got added are released soon.
      WORKER_LOCK_DURATION_MS: "2000",
      HOLD_SWEEP_AFTER_MS: "2000",
      HOLD_SWEEP_INTERVAL_MS: "1000",
      LEDGER_RECONCILE_INTERVAL_MS: "2000",
      JOB_WAIT_TIMEOUT_MS: "20000",
    },
  });
  proxy = await startRoundRobinProxy(stack.apiUrls);
  await mongoose.connect(stack.mongoUri);
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await mongoose.disconnect();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The API process (1 or 2) whose log holds this request id: a 404 is logged at info. */
function processThatLogged(requestId: string): number | undefined {
  return [1, 2].find((n) => readFileSync(path.join(logDir, `api-${n}.log`), "utf8").includes(requestId));
}

/** GET `path` on the front from `localAddress` (a loopback address of its own), on a new connection. */
function getFrom(localAddress: string, urlPath: string, requestId: string): Promise<number> {
  const { hostname, port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, localAddress, path: urlPath, agent: false, headers: { "x-request-id": requestId } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("scale-out: two API processes, two chat workers", () => {
  it("serves everything on one port: each client address stays on one API process, and polling sockets work", async () => {
    // Two loopback addresses the front puts on different processes, two calls from each.
    const addresses = [0, 1].map((slot) =>
      Array.from({ length: 20 }, (_, i) => `127.0.0.${i + 2}`).find((a) => slotOf(a, 2) === slot)!,
    );
    const seen: number[][] = [];
    for (const address of addresses) {
      const ids = [1, 2].map((n) => `front-${address}-${n}-${Date.now()}`);
      for (const id of ids) expect(await getFrom(address, "/api/no-such-route.php", id)).toBe(404);
      seen.push(await Promise.all(ids.map((id) => until(() => processThatLogged(id), 5_000, `the log line of ${id}`))));
    }
    expect(seen[0]![0]).toBe(seen[0]![1]);
    expect(seen[1]![0]).toBe(seen[1]![1]);
    expect(seen[0]![0]).not.toBe(seen[1]![0]);

    // Socket.IO's polling transport (each poll its own request) through the front, a job's push on it.
    const { client, id } = await userWithCoins(stack.url, 50);
    const { socket, received } = await connectSocket(stack.url, client, "polling");
    try {
      expect(socket.io.engine.transport.name).toBe("polling");
      const res = await client.post("/textai/chat.php", chatBody("what is 5 * 9?", id));
      expect(res.status).toBe(200);
      const completed = await until(
        () => received.find((r) => r.event === "job:completed" && r.payload.queue === "chat"),
        10_000,
        "job:completed pushed on the polling socket",
        100,
      );
      expect(JSON.stringify(completed.payload.result)).toContain("45");
    } finally {
      socket.disconnect();
    }
  });

  it("pushes to a socket on API process A the job accepted by API process B; metrics from either", async () => {
    const { client, id } = await userWithCoins(stack.apiUrls[0]!, 200);
    // The socket goes through the proxy; the log says which API process holds it.
    const before = proxy.log.length;
    const { socket, received } = await connectSocket(proxy.url, client);
    try {
      const upgrade = proxy.log.slice(before).find((e) => e.kind === "upgrade");
      expect(upgrade).toBeDefined();
      const other = 1 - upgrade!.backend;
      const requestId = `scale-push-${Date.now()}`;
      const res = await new Client(stack.apiUrls[other]).request("POST", "/textai/chat.php", chatBody("what is 6 * 7?", id), {
        cookie: client.cookieHeader(),
        "x-request-id": requestId,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-request-id")).toBe(requestId);
      expect(res.body.message).toContain("42");
      const completed = await until(
        () => received.find((r) => r.event === "job:completed" && r.payload.queue === "chat"),
        10_000,
        "job:completed push on the other API process",
        100,
      );
      expect(JSON.stringify(completed.payload.result)).toContain("42");
      expect(received.some((r) => r.event === "wallet:updated")).toBe(true);

      // The request id travelled into the job: a worker process logged it.
      const workerLogs = await until(
        () => {
          const text = readdirSync(logDir)
            .filter((f) => f.startsWith("worker-"))
            .map((f) => readFileSync(path.join(logDir, f), "utf8"))
            .join("\n");
          return text.includes(requestId) ? text : undefined;
        },
        5_000,
        "request id in a worker log",
        100,
      );
      expect(workerLogs).toContain(`"requestId":"${requestId}"`);
    } finally {
      socket.disconnect();
    }

    // Prometheus scrapes each API process with the bearer token; queue figures are cluster-wide.
    for (const url of stack.apiUrls) {
      const metrics = await new Client(url).get("/metrics", { authorization: `Bearer ${METRICS_TOKEN}` });
      expect(metrics.status).toBe(200);
      expect(metrics.body).toMatch(/storefront_queue_workers\{[^}]*queue="chat"[^}]*\} ([2-9]|\d{2,})/u);
      expect(metrics.body).toMatch(/storefront_wallet_ledger_entries_total\{[^}]*kind="hold"[^}]*\} [1-9]/u);
    }
  });

  it("loses no accepted job and no coin when an API process and a chat worker die mid-load", { timeout: 120_000 }, async () => {
    const USERS = 10;
    const CALLS = 100;
    const START = 200;
    const users = await Promise.all(Array.from({ length: USERS }, () => userWithCoins(proxy.url, START)));
    // A call answers within JOB_WAIT_TIMEOUT_MS (20 s) on a live API; past 25 s it counts as failed (status 0).
    for (const { client } of users) client.timeoutMs = 25_000;
    const statuses: number[] = [];
    let sent = 0;
    let killed = false;

    const victims = async () => {
      killed = true;
      const chatWorker = stack.workers.find((w) => w.name.includes("-chat") && w.child.exitCode === null);
      stack.apis[0]!.child.kill("SIGKILL");
      chatWorker!.child.kill("SIGKILL");
    };

    // 10 callers in parallel, 100 calls in all, through the proxy; the kill happens after 30.
    await Promise.all(
      users.map(async ({ client, id }, u) => {
        for (let i = 0; i < CALLS / USERS; i++) {
          sent += 1;
          if (sent === 30 && !killed) await victims();
          const res = await client.post("/textai/chat.php", chatBody(`what is ${u} + ${i}?`, id)).catch(() => ({ status: 0 }));
          statuses.push(res.status);
        }
      }),
    );
    expect(killed).toBe(true);
    expect(statuses).toHaveLength(CALLS);
    // Most calls succeed (the surviving API and worker take over); the rest failed visibly (502/504).
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(CALLS * 0.6);
    expect(statuses.every((s) => [200, 502, 504, 0].includes(s))).toBe(true);

    const ids = users.map((u) => new mongoose.Types.ObjectId(u.id));
    // Every accepted job ends: its hold settled (completed) or released (refunded); nothing pending.
    // The killed API process may have left a release cut short or a user's copy of their head behind
    // (docs/ledger.md); the test runs the maintenance queue's reconciler (what `npm run reconcile`
    // does) until nothing is open; each try reads every open hold, beside the rest of the run.
    await untilHoldsEnd(ids, { timeoutMs: 50_000, everyMs: 500 });

    const holds = await LedgerEntry.find({ userId: { $in: ids }, kind: "hold" }).lean();
    const settled = holds.filter((h) => h.holdState === "settled");
    const released = holds.filter((h) => h.holdState === "released");
    expect(settled.length + released.length).toBe(holds.length);
    // Every call answered 200 was a job that completed and kept its charge.
    expect(settled.length).toBeGreaterThanOrEqual(statuses.filter((s) => s === 200).length);
    // No job ran or was charged twice: one hold per accepted call at most.
    expect(holds.length).toBeLessThanOrEqual(CALLS);
    // Both chat worker processes did work (the load spread over them before one was killed).
    const chatLogs = readdirSync(logDir).filter((f) => /^worker-\d+-chat\.log$/u.test(f));
    expect(chatLogs).toHaveLength(2);
    for (const file of chatLogs) {
      expect(readFileSync(path.join(logDir, file), "utf8"), file).toContain('"msg":"job completed"');
    }

    for (const { id } of users) {
      const user = await User.findById(id, { coins: 1 }).lean<{ coins: number }>();
      const mine = holds.filter((h) => String(h.userId) === id);
      const spent = mine.filter((h) => h.holdState === "settled").reduce((sum, h) => sum - h.amount, 0);
      expect(user!.coins, `balance of ${id}`).toBe(await ledgerSum(id));
      expect(user!.coins, `coins of ${id}`).toBe(START - spent);
      const refunds = await LedgerEntry.countDocuments({ userId: id, kind: "release" });
      expect(refunds, `refunds of ${id}`).toBe(mine.filter((h) => h.holdState === "released").length);
    }
  });
});
