/**
 * Failures of the job pipeline on a stack of its own: chat workers talk to a local
 * OpenAI-compatible peer that fails, rate-limits or hangs on command, and workers get killed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "@storefront/shared";
import { LedgerEntry, hold, jobIdForHold, ledgerSum } from "@storefront/shared/server";
import { freePort, isRunning, startRedis } from "../../scripts/lib/infra";
import { startStack, type Stack } from "../../scripts/lib/stack";
import type { Client } from "../support/client";
import { connectSocket, until, userWithCoins } from "../support/realtime";

/** What the peer saw: how often each message was asked, and when. */
const hits = new Map<string, number[]>();
/** Responses held open to simulate a provider that hangs while its worker is killed. */
const hanging: ServerResponse[] = [];

function lastUserMessage(body: { messages?: { role: string; content: string }[] }): string {
  return [...(body.messages ?? [])].reverse().find((m) => m.role === "user")?.content ?? "";
}

function streamReply(res: ServerResponse, text: string, end = true): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const piece of text.match(/\S+\s*/gu) ?? []) {
    res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
  }
  if (end) res.end("data: [DONE]\n\n");
}

/**
 * Commands ride in the message: permanent-failure, transient-failure, flaky-once,
 * rate-limited-once, hang-once, slow-reply (1 s), parallel (300 ms).
 */
function peer(req: IncomingMessage, res: ServerResponse): void {
  let raw = "";
  req.on("data", (c: Buffer) => (raw += c.toString()));
  req.on("end", () => {
    const message = lastUserMessage(JSON.parse(raw) as { messages?: { role: string; content: string }[] });
    const seen = hits.get(message) ?? [];
    seen.push(Date.now());
    hits.set(message, seen);
    const first = seen.length === 1;
    if (message.includes("permanent-failure")) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "content refused by policy" } }));
    } else if (message.includes("transient-failure") || (message.includes("flaky-once") && first)) {
      res.writeHead(503, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "overloaded" } }));
    } else if (message.includes("rate-limited-once") && first) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
      res.end(JSON.stringify({ error: { message: "slow down" } }));
    } else if (message.includes("hang-once") && first) {
      streamReply(res, "Thinking ", false);
      hanging.push(res);
    } else if (message.includes("slow-reply")) {
      setTimeout(() => streamReply(res, `**Answer** to ${message}`), 1000);
    } else if (message.includes("parallel")) {
      // Slow enough that one worker's slots fill up and the other worker takes jobs too.
      setTimeout(() => streamReply(res, `**Answer** to ${message}`), 300);
    } else {
      streamReply(res, `**Answer** to ${message}`);
    }
  });
}

let server: Server;
let stack: Stack;
let dataDir: string;
let redis: Redis;
let chatQueue: Queue;
let baseUrl: string;

beforeAll(async () => {
  server = createServer(peer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  dataDir = mkdtempSync(path.join(tmpdir(), "storefront-jobs-"));
  stack = await startStack({
    dataDir,
    persist: false,
    logDir: path.resolve("test-artifacts/logs/jobs-failures"),
    workers: ["chat", "chat", "maintenance"],
    env: {
      NODE_ENV: "test",
      SESSION_SECRET: "test-session-secret-0123456789",
      LOG_LEVEL: "info",
      AI_PROVIDER: "openai",
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      OPENAI_API_KEY: "test-key",
      JOB_ATTEMPTS: "3",
      JOB_BACKOFF_MS: "100",
      WORKER_LOCK_DURATION_MS: "2000",
      WORKER_SHUTDOWN_GRACE_MS: "3000",
      JOB_WAIT_TIMEOUT_MS: "20000",
      HOLD_SWEEP_AFTER_MS: "1500",
      HOLD_SWEEP_INTERVAL_MS: "1000",
    },
  });
  baseUrl = stack.apiUrls[0]!;
  await mongoose.connect(stack.mongoUri);
  redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: null });
  chatQueue = new Queue("chat", { connection: redis });
}, 120_000);

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await chatQueue?.close();
  redis?.disconnect();
  await mongoose.disconnect();
  await stack?.stop();
  server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const userWith = (coins: number) => userWithCoins(baseUrl, coins);
const connect = (client: Client) => connectSocket(baseUrl, client);

async function entriesOf(userId: string) {
  return LedgerEntry.find({ userId, kind: { $ne: "credit" } })
    .sort({ createdAt: 1 })
    .lean();
}

describe("job failures", () => {
  it("refunds exactly once and tells the user it was refused (a code, not the provider's text) when the provider refuses for good", async () => {
    const { client, id } = await userWith(40);
    const { socket, received } = await connect(client);
    try {
      const message = "permanent-failure please";
      const res = await client.post("/textai/chat.php", { message });
      expect(res.status).toBe(502);
      expect(res.body.success).toBe(false);
      expect(res.body).toMatchObject({ code: "ai_refused", error: MESSAGES.aiRefused });
      const failed = await until(() => received.find((r) => r.event === "job:failed"));
      expect(failed.payload).toMatchObject({
        queue: "chat",
        refunded: Math.ceil(message.length / 4),
        code: "ai_refused",
        error: res.body.error,
      });
      expect((await chatQueue.getJob(res.body.jobId))?.failedReason).toContain("content refused by policy");
      await until(() => received.some((r) => r.event === "wallet:updated" && r.payload.coins === 40) || undefined);
      expect(hits.get(message)).toHaveLength(1);
      const entries = await entriesOf(id);
      expect(entries.map((e) => [e.kind, e.amount])).toEqual([
        ["hold", -6],
        ["release", 6],
      ]);
      expect(entries[0]!.holdState).toBe("released");
      expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(40);
      expect(await ledgerSum(id)).toBe(40);
    } finally {
      socket.disconnect();
    }
  });

  it("retries transient failures with backoff, then refunds once after the last attempt", async () => {
    const { client, id } = await userWith(40);
    const message = "transient-failure again";
    const res = await client.post("/textai/chat.php", { message });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: "ai_unavailable", error: MESSAGES.aiUnavailable });
    expect(hits.get(message)).toHaveLength(3);
    const entries = await entriesOf(id);
    expect(entries.map((e) => e.kind)).toEqual(["hold", "release"]);
    expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(40);
  });

  it("charges once when a retry succeeds, waiting at least the provider's Retry-After", async () => {
    const { client, id } = await userWith(40);
    const flaky = await client.post("/textai/chat.php", { message: "flaky-once" });
    expect(flaky.status).toBe(200);
    expect(flaky.body.message).toBe("Answer to flaky-once");
    const limited = await client.post("/textai/chat.php", { message: "rate-limited-once" });
    expect(limited.status).toBe(200);
    const [firstTry, secondTry] = hits.get("rate-limited-once")!;
    expect(secondTry! - firstTry!).toBeGreaterThanOrEqual(950);
    const entries = await entriesOf(id);
    expect(entries.map((e) => [e.kind, e.holdState])).toEqual([
      ["hold", "settled"],
      ["hold", "settled"],
    ]);
    expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(40 - 3 - 5);
  });

  it("never runs a job twice with two workers on the queue, and one Idempotency-Key makes one job", async () => {
    const { client, id } = await userWith(500);
    const messages = Array.from({ length: 16 }, (_, i) => `parallel question number ${i}`);
    const replies = await Promise.all(messages.map((message) => client.post("/textai/chat.php", { message })));
    for (const [i, r] of replies.entries()) {
      expect(r.status).toBe(200);
      expect(r.body.message).toBe(`Answer to ${messages[i]}`);
    }
    for (const m of messages) expect(hits.get(m)).toHaveLength(1);
    const ranBy = new Set<string>();
    for (const r of replies) ranBy.add((await chatQueue.getJob(r.body.jobId))!.processedBy!);
    expect(ranBy.size).toBe(2);

    const headers = { "Idempotency-Key": `same-key-${id}` };
    const twice = await Promise.all(
      [1, 2, 3].map(() => client.post("/textai/chat.php", { message: "only once please" }, headers)),
    );
    const ok = twice.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of twice) expect([200, 409]).toContain(r.status);
    expect(new Set(ok.map((r) => r.body.jobId)).size).toBe(1);
    expect(hits.get("only once please")).toHaveLength(1);
    const holds = await LedgerEntry.countDocuments({ userId: id, kind: "hold" });
    expect(holds).toBe(messages.length + 1);
    expect(await ledgerSum(id)).toBe((await client.get("/wallet/get.php")).body.wallet.coins);
  });

  it("finishes a job once, charged once, on another worker after its worker is SIGKILLed", async () => {
    const { client, id } = await userWith(40);
    const { socket, received } = await connect(client);
    try {
      const message = "hang-once until killed";
      const pending = client.post("/textai/chat.php", { message });
      await until(() => hits.get(message)?.length === 1 || undefined);
      const job = await until(async () => (await chatQueue.getJobs(["active"])).find((j) => j.data.message === message));
      const victim = stack.workers.find((w) => job.processedBy?.endsWith(`:${w.child.pid}`));
      expect(victim).toBeDefined();
      victim!.child.kill("SIGKILL");

      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body.message).toBe(`Answer to ${message}`);
      expect(hits.get(message)).toHaveLength(2);
      const after = await chatQueue.getJob(job.id!);
      expect(after!.processedBy).not.toBe(job.processedBy);
      await until(() => received.some((r) => r.event === "job:completed" && r.payload.jobId === job.id) || undefined);
      await new Promise((r) => setTimeout(r, 300));
      expect(received.filter((r) => r.event === "job:completed" && r.payload.jobId === job.id)).toHaveLength(1);
      const entries = await entriesOf(id);
      expect(entries.map((e) => [e.kind, e.holdState])).toEqual([["hold", "settled"]]);
      expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(40 - Math.ceil(message.length / 4));
    } finally {
      socket.disconnect();
    }
  });
});

describe("worker shutdown", () => {
  /** The worker process running the job whose message is `message`, once it is active. */
  async function runnerOf(message: string) {
    const job = await until(async () => (await chatQueue.getJobs(["active"])).find((j) => j.data.message === message));
    const runner = stack.workers.find((w) => w.child.exitCode === null && job.processedBy?.endsWith(`:${w.child.pid}`));
    expect(runner).toBeDefined();
    return { job, runner: runner! };
  }

  const exited = (child: { once(e: "exit", f: (code: number | null) => void): unknown }) =>
    new Promise<number | null>((resolve) => child.once("exit", resolve));

  /** A parent of its own that forks `program` as the stack does; resolves with the child's pid once it is ready. */
  async function forkedByParent(program: string, env: Record<string, string | undefined>) {
    const parent = spawn(
      process.execPath,
      [
        "-e",
        `const c = require("node:child_process").fork(process.argv[1], [], { stdio: "ignore" });
         c.on("message", (m) => (m.type === "ready" || m.type === "listening") && console.log(c.pid));`,
        path.resolve(program),
      ],
      { env: { ...stack.env, ...env }, stdio: ["ignore", "pipe", "inherit"] },
    );
    const pid = Number(await new Promise<string>((resolve) => parent.stdout.once("data", (d: Buffer) => resolve(String(d)))));
    expect(isRunning(pid)).toBe(true);
    return { parent, pid };
  }

  it("stops when its supervisor is killed, instead of living on as an orphan", async () => {
    const { parent, pid } = await forkedByParent("workers/dist/main.mjs", { WORKER_QUEUES: "maintenance" });
    parent.kill("SIGKILL");
    await until(() => !isRunning(pid) || undefined, 20_000, "the orphaned worker exits");
  });

  it("stops as an orphan even when its Redis is gone for good, the API and a worker alike", async () => {
    // A supervisor killed with its whole stack: closing the connections would wait forever, so the
    // stop is cut short (the worker after its grace period plus 5 s, the API after 5 s).
    const redis = await startRedis();
    const pids: number[] = [];
    try {
      const [api, worker] = await Promise.all([
        forkedByParent("api/dist/main.mjs", { REDIS_URL: redis.url, PORT: String(await freePort()) }),
        forkedByParent("workers/dist/main.mjs", {
          REDIS_URL: redis.url,
          WORKER_QUEUES: "chat",
          WORKER_SHUTDOWN_GRACE_MS: "1000",
        }),
      ]);
      pids.push(api.pid, worker.pid);
      await redis.stop();
      api.parent.kill("SIGKILL");
      worker.parent.kill("SIGKILL");
      await until(() => pids.every((pid) => !isRunning(pid)) || undefined, 30_000, "both orphans exit");
    } finally {
      await redis.stop();
      // A failed run leaves none behind for the rest of the suite.
      for (const pid of pids.filter(isRunning)) process.kill(pid, "SIGKILL");
    }
  });

  it("lets an active job finish on SIGTERM, then exits cleanly", async () => {
    await Promise.all([stack.startWorker("chat"), stack.startWorker("chat")]);
    const { client, id } = await userWith(40);
    const message = "slow-reply during shutdown";
    const pending = client.post("/textai/chat.php", { message });
    const { runner } = await runnerOf(message);
    const exit = exited(runner.child);
    runner.child.kill("SIGTERM");
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(`Answer to ${message}`);
    expect(await exit).toBe(0);
    expect(hits.get(message)).toHaveLength(1);
    expect((await entriesOf(id)).map((e) => [e.kind, e.holdState])).toEqual([["hold", "settled"]]);
  });

  it("hands a job that outlives the grace period back to another worker, charged once", async () => {
    const { client, id } = await userWith(40);
    const message = "hang-once through shutdown";
    const pending = client.post("/textai/chat.php", { message });
    const { runner } = await runnerOf(message);
    const exit = exited(runner.child);
    runner.child.kill("SIGTERM");
    expect(await exit).toBe(0);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(`Answer to ${message}`);
    expect(hits.get(message)).toHaveLength(2);
    expect((await entriesOf(id)).map((e) => [e.kind, e.holdState])).toEqual([["hold", "settled"]]);
  });
});

describe("hold sweeper", () => {
  it("releases a hold whose job never made it into the queue", async () => {
    const { client, id } = await userWith(30);
    const key = `job:chat:${id}:lost-${Date.now()}`;
    await hold({ userId: id, coins: 12, key, feature: "text", queue: "chat", jobId: jobIdForHold("chat", key) });
    expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(18);
    await until(async () => (await LedgerEntry.findOne({ key }).lean())?.holdState === "released" || undefined);
    expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(30);
    expect(await LedgerEntry.countDocuments({ key: `release:${key}` })).toBe(1);
  });

  it("releases a hold whose job failed without refunding", async () => {
    const { client, id } = await userWith(30);
    const key = `job:video:${id}:failed-${Date.now()}`;
    const jobId = jobIdForHold("video", key);
    await hold({ userId: id, coins: 10, key, feature: "video", queue: "video", jobId });
    // A bare processor on the video queue (no worker process serves it here) that dies without refunding.
    const videoQueue = new Queue("video", { connection: redis });
    // A connection handed to a worker is the caller's to close (the stack's Redis stops after this file).
    const workerConnection = redis.duplicate();
    const crashing = new Worker(
      "video",
      async () => {
        throw new UnrecoverableError("crashed before refunding");
      },
      { connection: workerConnection },
    );
    try {
      await videoQueue.add("generate", { userId: id, holdKey: key }, { jobId });
      await until(async () => (await videoQueue.getJob(jobId))?.failedReason || undefined);
      await until(async () => (await LedgerEntry.findOne({ key }).lean())?.holdState === "released" || undefined);
      expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(30);
    } finally {
      await crashing.close();
      await videoQueue.close();
      workerConnection.disconnect();
    }
  });
});

describe("ledger invariants after all of the above", () => {
  it("ends every accepted job as exactly one settled or released hold, and balances equal ledger sums", async () => {
    await until(async () => (await LedgerEntry.countDocuments({ kind: "hold", holdState: "held" })) === 0 || undefined);
    const holds = await LedgerEntry.find({ kind: "hold" }).lean();
    expect(holds.length).toBeGreaterThan(20);
    expect(new Set(holds.map((h) => h.jobId)).size).toBe(holds.length);
    for (const h of holds) expect(["settled", "released"]).toContain(h.holdState);
    const releases = await LedgerEntry.find({ kind: "release" }).lean();
    expect(releases.map((r) => r.key).sort()).toEqual(
      holds
        .filter((h) => h.holdState === "released")
        .map((h) => `release:${h.key}`)
        .sort(),
    );
    const users = await LedgerEntry.distinct("userId", { kind: "hold" });
    for (const userId of users) {
      const user = await mongoose.connection.collection("users").findOne({ _id: userId });
      expect(await ledgerSum(userId)).toBe(user?.coins);
    }
  });
});
