/**
 * A frozen worker is noticed (issue 33): the chat worker is stopped with SIGSTOP (alive, its Redis
 * connections open, silent), on a stack of this file's own.
 * - A chat call accepted just before the freeze is answered 503 within the bound, its coins back.
 * - A call once the queue has been silent for 5 s is refused at once, before anything is charged.
 * - With SIGCONT the worker comes back, runs the queued job, and it is charged once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debit, LedgerEntry, ledgerSum, SILENT_AFTER_MS } from "@storefront/shared/server";
import { startStack, type Stack } from "../../scripts/lib/stack";
import { chatBody, walletCoins } from "../support/client";
import { untilJobState } from "../support/queues";
import { connectSocket, until, userWithCoins } from "../support/realtime";

/** The bound docs/operations.md gives: the coins of a call accepted before the freeze are back within it. */
const RELEASE_BOUND_MS = 10_000;

let stack: Stack;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "storefront-frozen-"));
  stack = await startStack({
    dataDir,
    persist: false,
    logDir: path.resolve("test-artifacts/logs/frozen-worker"),
    workers: ["chat"],
    env: {
      NODE_ENV: "test",
      SESSION_SECRET: "frozen-test-session-secret-0123456789",
      LOG_LEVEL: "info",
      // Longer than the test: without the heartbeat the call accepted before the freeze would wait this out.
      JOB_WAIT_TIMEOUT_MS: "60000",
    },
  });
  await mongoose.connect(stack.mongoUri);
}, 120_000);

afterAll(async () => {
  const worker = stack?.workers[0]?.child;
  if (worker?.pid) process.kill(worker.pid, "SIGCONT");
  await mongoose.disconnect();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a frozen chat worker", () => {
  it("answers fast 503s, gives the held coins back, and runs the queued job once it returns, charged once", async () => {
    const { client, id } = await userWithCoins(stack.url, 100);
    const first = await client.post("/textai/chat.php", chatBody("what is 2 + 2?"));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const before = await walletCoins(client);
    const cost = 100 - before;
    expect(cost).toBeGreaterThan(0);

    const worker = stack.workers[0]!.child;
    process.kill(worker.pid!, "SIGSTOP");
    const frozenAt = Date.now();
    try {
      // Accepted: the worker beat less than 5 s ago. Its coins are held, and then given back.
      const accepted = await client.post("/textai/chat.php", chatBody("what is 3 + 4?"));
      const answeredAfter = Date.now() - frozenAt;
      expect(accepted.status).toBe(503);
      expect(accepted.body).toMatchObject({ code: "unavailable", refunded: true, queued: true });
      expect(answeredAfter).toBeLessThan(RELEASE_BOUND_MS);
      expect(answeredAfter).toBeGreaterThanOrEqual(SILENT_AFTER_MS - 1000);
      expect(await walletCoins(client)).toBe(before);
      const jobId: string = accepted.body.jobId;

      // Silent for 5 s now: refused at once (well within 2 s), nothing charged.
      const refusedAt = Date.now();
      const refused = await client.post("/textai/chat.php", chatBody("what is 5 + 6?"));
      expect(Date.now() - refusedAt).toBeLessThan(2000);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBeTruthy();
      expect(refused.body).toMatchObject({ code: "unavailable", missing: ["worker:chat"] });
      expect(await walletCoins(client)).toBe(before);

      // The job stayed queued: the worker comes back and runs it.
      process.kill(worker.pid!, "SIGCONT");
      await untilJobState(stack.redisUrl, "chat", jobId, "completed", "the queued job's completion");
      // Charged once, when it ran: the released hold and the new one, settled.
      const holds = await until(
        async () => {
          const entries = await LedgerEntry.find({ jobId, kind: "hold" }).lean<{ holdState: string; amount: number }[]>();
          return entries.some((e) => e.holdState === "settled") && entries;
        },
        10_000,
        "the job's charge",
      );
      expect(holds.map((e) => e.holdState).sort()).toEqual(["released", "settled"]);
      expect(await walletCoins(client)).toBe(before - cost);
      expect(await ledgerSum(id)).toBe(before - cost);
      // And new calls are served again once its beats are seen (the API's answer is cached 1 s; a 503 charges nothing).
      await until(
        async () => (await client.post("/textai/chat.php", chatBody("what is 1 + 1?"))).status === 200,
        5000,
        "a call served again",
      );
    } finally {
      process.kill(worker.pid!, "SIGCONT");
    }
  }, 90_000);

  it("runs no part of a queued job whose coins were given back and spent meanwhile: refused before any reply streams", async () => {
    const { client, id } = await userWithCoins(stack.url, 100);
    const { socket, received } = await connectSocket(stack.url, client);
    const worker = stack.workers[0]!.child;
    // A served call first: the worker is live again after the test before (its beats seen).
    await until(
      async () => (await client.post("/textai/chat.php", chatBody("what is 1 + 1?"))).status === 200,
      10_000,
      "a call served",
    );
    process.kill(worker.pid!, "SIGSTOP");
    try {
      const accepted = await client.post("/textai/chat.php", chatBody("what is 3 + 4?"));
      expect(accepted.body).toMatchObject({ code: "unavailable", refunded: true, queued: true });
      const jobId: string = accepted.body.jobId;
      // The coins given back are spent elsewhere before the worker returns.
      const left = await walletCoins(client);
      await debit(id, left, `spent-elsewhere:${jobId}`, "chat", "spent while the worker was frozen");
      expect(await ledgerSum(id)).toBe(0);

      process.kill(worker.pid!, "SIGCONT");
      await untilJobState(stack.redisUrl, "chat", jobId, "failed", "the queued job's refusal");
      // Nothing of the reply reached the user, and nothing was charged or left held.
      expect(received.filter((p) => p.payload?.jobId === jobId && p.event === "chat:delta")).toEqual([]);
      const holds = await LedgerEntry.find({ jobId, kind: "hold" }).lean<{ holdState: string }[]>();
      expect(holds.map((e) => e.holdState)).toEqual(["released"]);
      expect(await ledgerSum(id)).toBe(0);
    } finally {
      process.kill(worker.pid!, "SIGCONT");
      socket.close();
    }
  }, 90_000);
});
