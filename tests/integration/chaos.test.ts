/**
 * Chaos on the real stack (issue: survive crashes). A stack of its own, as `npm start` runs it
 * (persistent data: Redis with AOF, the MongoDB-compatible server on its H2 file; every process
 * supervised), two API processes behind a round-robin proxy, two maintenance workers.
 * - While Redis hangs, or a queue has no worker, calls answer 503 at once and charge nothing.
 * - Under a steady bounded load of chat, image, video and signed SMS webhook calls from many
 *   users, an API process, each worker kind, Redis and the database are SIGKILLed in turn while
 *   work is in flight; the supervisor brings each back. Then: every accepted call ended as exactly
 *   one settled or released hold, every balance equals its ledger sum, no job ran twice to
 *   completion or was lost, no SMS was sent twice, and the service answered again within the
 *   recovery bound. Every accepted SMS is answered: its reply reaches a final state and at least
 *   90% reach the gateway peer (so the no-double-send checks see real deliveries).
 *   The figures are printed (docs/operations.md quotes them).
 */
import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMS_INTEGRATION_DEFAULTS } from "@storefront/shared";
import { LedgerEntry, SmsMessage, User, ledgerSum, reconcileLedger } from "@storefront/shared/server";
import { startStack, type Stack } from "../../scripts/lib/stack";
import type { Supervised } from "../../scripts/lib/supervisor";
import { HttpGatewayPeer } from "../peers/sms-http-gateway";
import { startRoundRobinProxy, type RoundRobinProxy } from "../peers/round-robin-proxy";
import { chatBody, Client, provenInDatabase } from "../support/client";
import { openHolds, untilHoldsEnd } from "../support/holds";
import { connectSocket, until, userWithCoins } from "../support/realtime";

const ADMIN = { username: "chaos-admin", password: "chaos-admin-password-1" };
const WEBHOOK_SECRET = `chaos-webhook-secret-${randomUUID()}`;
const logDir = path.resolve("test-artifacts/logs/chaos");
/**
 * A killed process must serve again within this long: supervisor backoff (1 s) plus its start-up
 * (tsx, connections). On shared, busy cores a start-up alone can take half a minute, so the bound
 * grows with what the process's first start took on this machine in this run.
 */
const restartBoundMs = (target: Supervised) => Math.max(30_000, 1_000 + 2 * target.startupMs);
/** Once Redis or the database is back, the API and workers must be ready again within this long. */
const HEAL_BOUND_MS = 10_000;
/** While a dependency is unreachable, a call must be refused within this long. */
const FAIL_FAST_MS = 2_000;
/**
 * Under the chaos load, beside the rest of the run on two cores, the 95th percentile of refusals:
 * a refused call also waits for CPU there, and a call that hung instead of failing fast would take
 * the 10 s of server selection or command buffering.
 */
const LOADED_REFUSAL_P95_MS = 3_000;

let stack: Stack;
let proxy: RoundRobinProxy;
let dataDir: string;
let redis: Redis;
const gateway = new HttpGatewayPeer();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "storefront-chaos-"));
  rmSync(logDir, { recursive: true, force: true });
  stack = await startStack({
    dataDir,
    // As npm start: Redis keeps an append-only file, the database its H2 file, so a killed
    // server comes back with every acknowledged write.
    persist: true,
    logDir,
    apiProcesses: 2,
    workers: ["chat", "image", "video", "sms-reply", "maintenance", "maintenance"],
    env: {
      NODE_ENV: "test",
      SESSION_SECRET: "chaos-test-session-secret-0123456789",
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "info",
      LOGIN_RATE_LIMIT_PER_MINUTE: "100",
      LOGIN_RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
      // A SIGKILLed worker's job is taken over within seconds; stuck holds are released soon. The
      // lock outlives the Redis restart (a lock expiring while Redis is down would hand a job that
      // is finishing to a second run: production keeps the 30 s default).
      WORKER_LOCK_DURATION_MS: "8000",
      HOLD_SWEEP_AFTER_MS: "3000",
      HOLD_SWEEP_INTERVAL_MS: "1000",
      LEDGER_RECONCILE_INTERVAL_MS: "2000",
      JOB_WAIT_TIMEOUT_MS: "15000",
      // The gateway peer listens on 127.0.0.1, which the worker's address policy refuses unless
      // this allows it (the run's shared stack has it from TEST_LIMITS; this stack is its own).
      // Without it every reply was charged, refused, marked `failed` and refunded: the gateway
      // saw no SMS (`delivered: 0` in every run from 2026-11-24 on) and the no-double-send checks
      // below could not fail.
      SMS_GATEWAY_ALLOW_PRIVATE: "true",
    },
  });
  proxy = await startRoundRobinProxy(stack.apiUrls);
  await mongoose.connect(stack.mongoUri);
  redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  redis.on("error", () => undefined); // the test's own connection lives through the Redis kill
  await gateway.start();
  const admin = new Client(stack.apiUrls[0]);
  expect((await admin.post("/admin/login.php", ADMIN)).status).toBe(200);
  const configured = await admin.post("/sms/integration/config.php", {
    enabled: true,
    gateway_url: gateway.url,
    gateway_username: "gw-user",
    gateway_password: "gw-pass",
    sender_id: "Chaos",
    webhook_secret: WEBHOOK_SECRET,
    rate_limit_per_minute: 100,
    auto_reply_enabled: true,
    welcome_message: SMS_INTEGRATION_DEFAULTS.welcome_message,
    insufficient_funds_message: SMS_INTEGRATION_DEFAULTS.insufficient_funds_message,
  });
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
}, 150_000);

afterAll(async () => {
  await proxy?.close();
  redis?.disconnect();
  await mongoose.disconnect();
  await gateway.stop();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function postSms(from: string, text: string, messageId: string): Promise<number> {
  const raw = JSON.stringify({ from, to: "5555", text, message_id: messageId });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", WEBHOOK_SECRET).update(`${timestamp}.${raw}`).digest("hex");
  const res = await fetch(`${proxy.url}/api/sms/integration/webhook.php`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-signature": `sha256=${signature}`, "x-signature-timestamp": timestamp },
    body: raw,
    signal: AbortSignal.timeout(20_000),
  });
  return res.status;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - started };
}

describe("fail fast", () => {
  it("answers health and ready within 1 s and refuses calls within 2 s while Redis hangs, charging nothing", async () => {
    const { client, id } = await userWithCoins(stack.apiUrls[0]!, 100);
    const api = new Client(stack.apiUrls[0]);
    // A frozen Redis: the connection stays open and nothing answers (the worst case for hangs).
    stack.redis!.child.kill("SIGSTOP");
    try {
      const health = await timed(() => api.get("/health"));
      expect(health.value.status).toBe(200);
      expect(health.ms).toBeLessThan(1000);
      const ready = await timed(() => api.get("/ready"));
      expect(ready.value.status).toBe(503);
      expect(ready.value.body.missing).toContain("redis");
      expect(ready.ms).toBeLessThan(1000);
      const chat = await timed(() => client.post("/textai/chat.php", chatBody("are you there?")));
      expect(chat.value.status).toBe(503);
      expect(chat.value.body).toMatchObject({ success: false, code: "unavailable", missing: ["redis"] });
      // Refused before any Redis command: the readiness check found Redis silent, not just slow.
      expect(chat.ms).toBeLessThan(FAIL_FAST_MS / 2);
    } finally {
      stack.redis!.child.kill("SIGCONT");
      // Also after a failed check: the suites that follow need the stack ready.
      await until(async () => (await api.get("/ready")).status === 200, 10_000, "ready again after Redis resumed", 100);
    }
    expect(await LedgerEntry.countDocuments({ userId: id, kind: "hold" })).toBe(0);
    expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(100);
  });

  it("refuses a call for a queue without a live worker with 503 before charging", async () => {
    const { client, id } = await userWithCoins(stack.apiUrls[0]!, 100);
    const video = stack.workers.find((w) => w.name.endsWith("-video"))!;
    await video.stop(); // stopped for good: the supervisor does not bring it back
    try {
      // The API caches "has a live worker" for up to LIVE_WORKER_CACHE_MS; the first call after that is refused.
      const refused = await until(
        async () => {
          const res = await timed(() => client.post("/videos/generate.php", { prompt: "a calm sea", duration: 5 }));
          return res.value.status === 503 ? res : undefined;
        },
        10_000,
        "503 for a queue without a worker",
        200,
      );
      expect(refused.ms).toBeLessThan(FAIL_FAST_MS);
      expect(refused.value.body).toMatchObject({ code: "unavailable", missing: ["worker:video"] });
      expect(await LedgerEntry.countDocuments({ userId: id, kind: "hold" })).toBe(0);
      expect((await client.get("/wallet/get.php")).body.wallet.coins).toBe(100);
    } finally {
      stack.workers.splice(stack.workers.indexOf(video), 1);
      await stack.startWorker("video");
    }
  });
});

type Kind = "chat" | "image" | "video" | "sms";
interface Call {
  kind: Kind;
  user: number;
  status: number;
  ms: number;
  at: number;
  jobId?: string;
  messageId?: string;
}

describe("chaos under load", () => {
  it("heals every SIGKILLed part and loses or doubles nothing", { timeout: 240_000 }, async () => {
    const USERS = 8;
    const START = 100_000;
    const MAX_CALLS = 1500;
    // Proven numbers: the SMS webhook traffic below is answered and charged on these accounts.
    const users = await Promise.all(
      Array.from({ length: USERS }, async () => provenInDatabase(await userWithCoins(proxy.url, START))),
    );
    const phones = await Promise.all(
      users.map(async (u) => (await User.findById(u.id, { phone: 1 }).lean<{ phone: string }>())!.phone),
    );
    for (const { client } of users) client.timeoutMs = 25_000;
    const calls: Call[] = [];
    let inFlight = 0;
    let running = true;

    async function one(u: number, n: number): Promise<void> {
      const { client } = users[u]!;
      const kind: Kind = (["chat", "sms", "image", "chat", "sms", "chat", "chat", "video", "chat", "sms"] as const)[
        (u + n) % 10
      ]!;
      const started = Date.now();
      inFlight += 1;
      const call: Call = { kind, user: u, status: 0, ms: 0, at: started };
      try {
        if (kind === "chat") {
          const res = await client.post("/textai/chat.php", chatBody(`what is ${u} + ${n}?`));
          call.status = res.status;
          if (res.status === 200) call.jobId = res.body.jobId;
        } else if (kind === "image") {
          call.status = (await client.post("/images/generate.php", { prompt: `a lighthouse number ${n}` })).status;
        } else if (kind === "video") {
          call.status = (await client.post("/videos/generate.php", { prompt: `waves number ${n}`, duration: 5 })).status;
        } else {
          call.messageId = randomUUID();
          call.status = await postSms(phones[u]!, `hello ${n}`, call.messageId);
        }
      } catch {
        call.status = 0;
      } finally {
        inFlight -= 1;
        call.ms = Date.now() - started;
        calls.push(call);
      }
    }

    // Bounded load: USERS callers in a loop, each waiting for its answer, at most MAX_CALLS in all.
    let sent = 0;
    const load = Promise.all(
      users.map(async (_, u) => {
        for (let n = 0; running && sent < MAX_CALLS; n++) {
          sent += 1;
          await one(u, n);
          // A steady pace, as people type: bounded load on two cores, whatever the answers.
          await new Promise((r) => setTimeout(r, 300));
        }
      }),
    );

    const api = (i: number) => new Client(stack.apiUrls[i]);
    const allReady = async () =>
      (
        await Promise.all(
          stack.apiUrls.map((_, i) =>
            api(i)
              .get("/ready")
              .catch(() => ({ status: 0 })),
          ),
        )
      ).every((r) => r.status === 200);
    const queues = Object.fromEntries(
      ["chat", "image", "video", "sms-reply", "maintenance"].map((q) => [
        q,
        new Queue(q, { connection: redis }).on("error", () => undefined), // its connection lives through the Redis kill
      ]),
    );
    const recovery: { part: string; ms: number; healMs: number; inFlight: number; boundMs: number }[] = [];

    /** Kills `target` while calls are in flight; records how long until it is back and serving. */
    async function kill(part: string, target: Supervised, serving: () => Promise<boolean>): Promise<void> {
      await until(() => inFlight > 0 || undefined, 10_000, "calls in flight", 20);
      const before = target.restarts;
      const busy = inFlight;
      const killedAt = Date.now();
      target.child.kill("SIGKILL");
      await target.restarted(before + 1, 90_000);
      const backAt = Date.now();
      await until(serving, 60_000, `${part} serving again`, 100);
      recovery.push({
        part,
        ms: Date.now() - killedAt,
        healMs: Date.now() - backAt,
        inFlight: busy,
        boundMs: restartBoundMs(target),
      });
    }

    await until(() => calls.length >= 20 || undefined, 30_000, "load running", 50);
    // The processes die one after the other, 1.5 s apart, each recovering on its own; then Redis,
    // then the database, each once the whole service is ready again.
    // How long each phase took, printed with the figures (a slow heal shows where it waited).
    const phases: Record<string, number> = {};
    let phaseStart = Date.now();
    const phase = (name: string) => {
      phases[name] = Date.now() - phaseStart;
      phaseStart = Date.now();
    };
    const processKills: Promise<void>[] = [];
    const apiServing = async () =>
      (
        await api(0)
          .get("/health")
          .catch(() => ({ status: 0 }))
      ).status === 200;
    processKills.push(kill("api", stack.apis[0]!, apiServing));
    for (const queue of ["chat", "image", "video", "sms-reply", "maintenance"]) {
      await new Promise((r) => setTimeout(r, 1500));
      const worker = stack.workers.find((w) => w.name.endsWith(`-${queue}`) && w.child.exitCode === null)!;
      processKills.push(kill(`worker:${queue}`, worker, async () => (await queues[queue]!.getWorkersCount()) > 0));
    }
    await Promise.all(processKills);
    await until(allReady, 60_000, "ready after the process kills", 100);
    phase("processKills");
    await kill("redis", stack.redis!, allReady);
    phase("redis");
    await kill("mongodb", stack.mongo!, allReady);
    phase("mongodb");
    const lastKill = Date.now();
    // A little load after the last recovery shows the service answering again; then stop.
    await until(
      () => calls.filter((c) => c.at > lastKill && c.status === 200).length >= 10 || undefined,
      30_000,
      "calls succeed after the last kill",
      50,
    );
    running = false;
    await load;
    phase("loadEnd");

    const ids = users.map((u) => new mongoose.Types.ObjectId(u.id));
    // A user whose `coins` is behind their chain (a copy lost to a kill: docs/ledger.md).
    const behind = async () => {
      const heads = await LedgerEntry.aggregate<{ _id: unknown; seq: number }>([
        { $match: { userId: { $in: ids } } },
        { $group: { _id: "$userId", seq: { $max: "$seq" } } },
      ]);
      const users = await User.find({ _id: { $in: ids } }, { ledgerSeq: 1 }).lean<{ _id: unknown; ledgerSeq: number }[]>();
      const copied = new Map(users.map((u) => [String(u._id), u.ledgerSeq]));
      return heads.filter((h) => copied.get(String(h._id)) !== h.seq).length;
    };
    const openAtEnd = await openHolds(ids);
    // Each try reads every open hold and user: the sweeper's own pace (HOLD_SWEEP_*) sets the wait.
    await untilHoldsEnd(ids, { timeoutMs: 75_000, everyMs: 1000, alsoDone: async () => (await behind()) === 0 });

    phase("settle");
    const violations: string[] = [];
    const holds = await LedgerEntry.find({ userId: { $in: ids }, kind: "hold" }).lean();
    const settled = holds.filter((h) => h.holdState === "settled").length;
    const released = holds.filter((h) => h.holdState === "released").length;
    // One charge per accepted job: one hold, or (a job whose worker fell silent for 5 s, issue 33)
    // its first hold released and the charge taken again when it ran, under `<key>:rerun`, settled.
    // Every answered chat's job has its charge settled.
    const byJob = new Map<string, typeof holds>();
    for (const h of holds) byJob.set(String(h.jobId), [...(byJob.get(String(h.jobId)) ?? []), h]);
    for (const [jobId, own] of byJob) {
      const rerun =
        own.length === 2 && own.find((h) => own.some((o) => h.key === `${o.key}:rerun` && o.holdState === "released"));
      if (own.length > 1 && !rerun) violations.push(`job ${jobId} has ${own.length} holds`);
    }
    for (const c of calls.filter((c) => c.jobId)) {
      const own = byJob.get(c.jobId!) ?? [];
      if (!own.some((h) => h.holdState === "settled"))
        violations.push(`answered chat ${c.jobId} not settled (${own.map((h) => h.holdState).join(", ") || "no hold"})`);
    }
    const charged = calls.filter((c) => ["chat", "image", "video"].includes(c.kind) && c.status === 200).length;
    if (settled < charged) violations.push(`${charged} calls answered 200 but only ${settled} holds settled`);
    for (const { id } of users) {
      // An SMS reply retried after the kills may still charge or refund now: its entry can land a
      // moment before its copy onto the user (docs/ledger.md). Read again until the two agree, the
      // reconciler copying a head whose copy a kill lost; the chain's own check below is the one that
      // proves no coin was lost or doubled.
      let user = await User.findById(id, { coins: 1 }).lean<{ coins: number }>();
      let sum = await ledgerSum(id);
      for (let read = 0; read < 10 && user!.coins !== sum; read++) {
        await reconcileLedger();
        user = await User.findById(id, { coins: 1 }).lean<{ coins: number }>();
        sum = await ledgerSum(id);
      }
      if (user!.coins !== sum) {
        const entries = await LedgerEntry.find(
          { userId: id },
          { _id: 0, seq: 1, key: 1, kind: 1, amount: 1, holdState: 1, balanceAfter: 1 },
        ).lean();
        violations.push(`balance of ${id} is ${user!.coins}, ledger says ${sum}: ${JSON.stringify(entries)}`);
      }
      // The chain is whole: places 1..n, each balance the one before plus its amount, never below 0.
      const chain = await LedgerEntry.find({ userId: id }, { seq: 1, amount: 1, balanceAfter: 1 }).sort({ seq: 1 }).lean();
      let before = 0;
      for (const [i, entry] of chain.entries()) {
        if (entry.seq !== i + 1 || entry.balanceAfter !== before + entry.amount || entry.balanceAfter < 0) {
          violations.push(`chain of ${id} broken at place ${i + 1}: ${JSON.stringify(entry)}`);
          break;
        }
        before = entry.balanceAfter;
      }
    }
    // No job ran twice to completion: one "job completed" line per job id across the worker logs.
    const completions = new Map<string, number>();
    for (const file of readdirSync(logDir).filter((f) => f.startsWith("worker-"))) {
      for (const line of readFileSync(path.join(logDir, file), "utf8").split("\n")) {
        if (!line.includes('"msg":"job completed"')) continue;
        const { queue, jobId } = JSON.parse(line) as { queue: string; jobId: string };
        completions.set(`${queue}/${jobId}`, (completions.get(`${queue}/${jobId}`) ?? 0) + 1);
      }
    }
    for (const [job, n] of completions) if (n > 1) violations.push(`${job} completed ${n} times`);
    // Every accepted SMS is answered: its job ran (an inbound record), prepared one reply (an
    // outbound record under the same key) and brought it to a final state, `sent` or `failed`.
    // Replies retried after the kills may still be on their way here, so this waits (bounded).
    const accepted = calls.filter((c) => c.kind === "sms" && c.status === 202);
    type OutboundRecord = { _id: unknown; state: string; kind: string; gateway_response?: string };
    const smsRecords = async () => {
      // A reply is keyed as the inbound message it answers (`in:<key>`, `out:<key>`).
      const inbound = await SmsMessage.find(
        { direction: "inbound", gateway_message_id: { $in: accepted.map((c) => c.messageId) } },
        { key: 1 },
      ).lean<{ key: string }[]>();
      const outbound = await SmsMessage.find(
        { key: { $in: inbound.map((m) => `out:${m.key.slice("in:".length)}`) } },
        { state: 1, kind: 1, gateway_response: 1 },
      ).lean<OutboundRecord[]>();
      return { inbound, outbound };
    };
    const isFinal = (o: OutboundRecord) => o.state === "sent" || o.state === "failed";
    let sms = await smsRecords();
    try {
      sms = await until(
        async () => {
          const now = await smsRecords();
          return now.inbound.length === accepted.length && now.outbound.length === accepted.length && now.outbound.every(isFinal)
            ? now
            : undefined;
        },
        30_000,
        "every accepted SMS answered",
        500,
      );
    } catch {
      sms = await smsRecords();
      violations.push(
        `${accepted.length} SMS accepted, ${sms.inbound.length} processed, ${sms.outbound.length} replies prepared, ` +
          `${sms.outbound.filter(isFinal).length} of them sent or failed`,
      );
    }
    phase("smsAnswered");
    const outbound = sms.outbound.length;
    const outboundStates: Record<string, number> = {};
    for (const o of sms.outbound) outboundStates[`${o.kind}/${o.state}`] = (outboundStates[`${o.kind}/${o.state}`] ?? 0) + 1;
    const failedResponses = [...new Set(sms.outbound.filter((o) => o.state === "failed").map((o) => o.gateway_response))];
    const sentIds = sms.outbound.filter((o) => o.state === "sent").map((o) => String(o._id));
    // No SMS sent twice: one outbound message per inbound one, each delivered under its own
    // reference (the outbound record's id). The one window left (documented in sms-reply.ts): a
    // worker killed during the gateway call itself resends once with the same reference, which the
    // gateway can drop.
    const perReference = new Map<string, number>();
    for (const d of gateway.delivered)
      perReference.set(String(d.body.reference), (perReference.get(String(d.body.reference)) ?? 0) + 1);
    const resent = [...perReference.values()].filter((n) => n > 1).length;
    for (const [ref, n] of perReference) if (n > 2) violations.push(`SMS ${ref} delivered ${n} times`);
    if (resent > 1) violations.push(`${resent} SMS resent, more than the one sms-reply kill can cause`);
    if (outbound > accepted.length) violations.push(`${outbound} outbound SMS for ${accepted.length} accepted messages`);
    const sentSms = perReference.size;
    if (sentSms > accepted.length) violations.push(`${sentSms} distinct SMS delivered for ${accepted.length} accepted messages`);
    // The checks above can fail only if replies reach the gateway: until this suite's stack allowed
    // the loopback gateway (SMS_GATEWAY_ALLOW_PRIVATE, above), every reply was charged, refused by
    // the address policy, marked `failed` and refunded, and `delivered` was 0 in every run. So:
    // every reply recorded `sent` reached the gateway peer under its reference, and the gateway
    // here never fails, so at least 90% of the accepted messages (every user has coins to spare;
    // one short of them is answered with the free notice, also sent) were delivered.
    const undelivered = sentIds.filter((id) => !perReference.has(id));
    if (undelivered.length) violations.push(`${undelivered.length} SMS recorded sent never reached the gateway`);
    if (sentSms < Math.ceil(accepted.length * 0.9))
      violations.push(
        `${sentSms} SMS delivered for ${accepted.length} accepted: ${JSON.stringify({ outboundStates, failedResponses })}`,
      );

    // Sessions survived the Redis restart, and pushes flow again.
    for (const { client } of users) expect((await client.get("/wallet/get.php")).status).toBe(200);
    const { socket, received } = await connectSocket(proxy.url, users[0]!.client);
    try {
      const res = await users[0]!.client.post("/textai/chat.php", chatBody("what is 6 * 7?"));
      expect(res.status).toBe(200);
      await until(
        () => received.find((r) => r.event === "job:completed" && r.payload.jobId === res.body.jobId),
        10_000,
        "push after the chaos",
        50,
      );
    } finally {
      socket.disconnect();
    }
    // Schedules kept running after every restart: each ran again after the last kill.
    const maintenance = queues.maintenance!;
    await until(
      async () => {
        const done = await maintenance.getJobs(["completed"], 0, 200);
        const names = new Set(done.filter((j) => (j.finishedOn ?? 0) > lastKill).map((j) => j.name));
        return names.has("queue-stats") && names.has("hold-sweep") ? true : undefined;
      },
      15_000,
      "schedules run after the last kill",
      200,
    );
    await Promise.all(Object.values(queues).map((q) => q.close()));

    const statuses = new Map<string, number>();
    for (const c of calls) statuses.set(`${c.kind}:${c.status}`, (statuses.get(`${c.kind}:${c.status}`) ?? 0) + 1);
    const refusals = calls.filter((c) => c.status === 503);
    const refusalMs = refusals.map((c) => c.ms).sort((a, b) => a - b);
    const p95Refusal = refusalMs[Math.floor(refusalMs.length * 0.95)] ?? 0;
    const figures = {
      calls: calls.length,
      byKindAndStatus: Object.fromEntries([...statuses].sort()),
      kills: recovery.length,
      recoveryMs: Object.fromEntries(recovery.map((r) => [r.part, r.ms])),
      readyAfterBackMs: Object.fromEntries(recovery.map((r) => [r.part, r.healMs])),
      restartBoundMs: Object.fromEntries(recovery.map((r) => [r.part, r.boundMs])),
      callsInFlightAtKill: Object.fromEntries(recovery.map((r) => [r.part, r.inFlight])),
      holds: { total: holds.length, settled, released },
      sms: {
        accepted: accepted.length,
        outbound,
        delivered: sentSms,
        resentSameReference: resent,
        outboundStates,
        failedResponses,
      },
      refusals503: refusals.length,
      refusalMsP95: p95Refusal,
      slowestRefusalMs: Math.max(0, ...refusalMs),
      violations: violations.length,
      phasesMs: phases,
      unfinishedAfterLoad: openAtEnd.map((e) => `${e.kind}/${e.holdState ?? "-"}`),
    };
    console.log(`[chaos] ${JSON.stringify(figures, null, 2)}`);

    if (violations.length) console.error(`[chaos] violations:\n${violations.join("\n")}`);
    expect(violations).toEqual([]);
    expect(holds.length).toBe(settled + released);
    for (const r of recovery) {
      if (r.part === "redis" || r.part === "mongodb")
        expect(r.healMs, `ready after ${r.part} is back`).toBeLessThan(HEAL_BOUND_MS);
      else expect(r.ms, `recovery of ${r.part}`).toBeLessThan(r.boundMs);
    }
    // Refusals come at once (the SIGSTOP test above holds each to 2 s); under the load of this
    // test on two shared cores the slowest also wait for CPU, so the bound is on the 95th percentile.
    expect(p95Refusal).toBeLessThan(LOADED_REFUSAL_P95_MS);
    // Every call got an answer: a result, a clear refusal (503, or 402 once a wallet ran dry), or
    // for the calls cut off by a kill a 502 from the proxy, a 504 or no answer.
    expect(
      calls.every((c) => [200, 202, 402, 502, 503, 504, 0].includes(c.status)),
      JSON.stringify(figures.byKindAndStatus),
    ).toBe(true);
    // Every kind of call was served between the kills (how many depends on how fast refusals come
    // and how busy the machine is, so the count is reported in the figures above, not bounded).
    for (const kind of ["chat", "image", "video", "sms"]) {
      expect(
        calls.some((c) => c.kind === kind && (c.status === 200 || c.status === 202)),
        `${kind}: ${JSON.stringify(figures.byKindAndStatus)}`,
      ).toBe(true);
    }
  });
});
