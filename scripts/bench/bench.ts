/**
 * `npm run bench`: the job pipeline benchmark of docs/performance.md. Starts a throw-away stack
 * (Redis, the MongoDB-compatible server, one API process, one chat worker process), a bare
 * Express process and a trivial BullMQ worker process, all on 127.0.0.1, then prints:
 *   (a) requests/s and p50/p99 of POST /api/textai/chat.php (charge + enqueue + offline reply
 *       through the worker) against the bare Express handler, same client, same concurrency;
 *   (b) latency from sending the chat call to the pushed "job:completed" (socket.io-client)
 *       against raw BullMQ queue.add → completed (QueueEvents), one request at a time.
 * Sizes: BENCH_REQUESTS (1000, in BENCH_ROUNDS (4) turns of the loads), BENCH_WARMUP (1000, each load, all before any is measured), BENCH_CONCURRENCY (16), BENCH_SERIAL (300).
 * Scale: BENCH_API_PROCESSES (1) API processes, the load's lanes spread over them (each simulated
 * user stays on one), and BENCH_CHAT_WORKERS (1) chat worker processes; docs/performance.md has
 * the figures for 1, 2 and 4 of each.
 * BENCH_PROFILE_DIR=<dir> writes CPU profiles of the API and workers (see profile-top.ts).
 */
import { fork, type ChildProcess } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { MongoClient } from "mongodb";
import { io, type Socket } from "socket.io-client";
import { stopProcess } from "../lib/infra";
import { startStack, type Stack } from "../lib/stack";
import { BenchClient, requestsPerSecond, runLoad, summarise, type LoadResult, type Summary } from "./load";
import { makeUsers, postJson, type BenchUser } from "./users";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

function sizeFromEnv(name: string, fallback: number, max: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be an integer from 1 to ${max}`);
  return value;
}

const REQUESTS = sizeFromEnv("BENCH_REQUESTS", 1000, 5000);
const WARMUP = sizeFromEnv("BENCH_WARMUP", 1000, 5000);
const CONCURRENCY = sizeFromEnv("BENCH_CONCURRENCY", 16, 64);
const SERIAL = sizeFromEnv("BENCH_SERIAL", 300, 5000);
const BACKLOG = sizeFromEnv("BENCH_BACKLOG", 200, 2000);
const ROUNDS = Math.min(sizeFromEnv("BENCH_ROUNDS", 4, 20), REQUESTS);
const API_PROCESSES = sizeFromEnv("BENCH_API_PROCESSES", 1, 8);
const CHAT_WORKERS = sizeFromEnv("BENCH_CHAT_WORKERS", 1, 8);
const SERIAL_WARMUP = 20;
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ? path.resolve(process.env.BENCH_PROFILE_DIR) : undefined;
/** The trivial queue of the raw BullMQ baseline (raw-worker.ts). */
const RAW_QUEUE = "bench-raw";
/** The floor's queue (floor.ts, floor-worker.ts). */
const FLOOR_QUEUE = "bench-floor";
const WEBHOOK_SECRET = randomBytes(24).toString("hex");
const CHAT_BODY = { message: "hello there", avatarType: "general", language: "en" };

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const CLOCK_TICKS = 100;

/** CPU time (ms, user + system, every thread) a process has used so far; 0 once it is gone. */
function cpuMsOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

type Groups = Record<string, () => (number | undefined)[]>;

/** The CPU time each group of processes has used so far. */
function cpuSample(groups: Groups): Record<string, number> {
  return Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, pids().reduce<number>((t, p) => t + cpuMsOf(p), 0)]));
}

/** CPU ms per call of each group of processes over a load phase (the machine's cores are the limit). */
async function cpuPerCall<T extends LoadResult>(
  groups: Groups,
  run: () => Promise<T>,
): Promise<{ result: T; perCall: Record<string, number> }> {
  const before = cpuSample(groups);
  const result = await run();
  const after = cpuSample(groups);
  const perCall = Object.fromEntries(Object.keys(groups).map((k) => [k, (after[k]! - before[k]!) / result.requests]));
  return { result, perCall };
}

type Measured = { result: LoadResult; perCall: Record<string, number> };

/** One load's rounds as one figure: calls, failures, time and latencies added, CPU per call weighted by calls. */
function combine(runs: Measured[]): Measured {
  const requests = runs.reduce((n, r) => n + r.result.requests, 0);
  const result: LoadResult = {
    requests,
    failures: runs.reduce((n, r) => n + r.result.failures, 0),
    wallMs: runs.reduce((n, r) => n + r.result.wallMs, 0),
    latenciesMs: runs.flatMap((r) => r.result.latenciesMs),
  };
  const firstFailure = runs.find((r) => r.result.firstFailure)?.result.firstFailure;
  if (firstFailure) result.firstFailure = firstFailure;
  const perCall: Record<string, number> = {};
  for (const run of runs)
    for (const [group, ms] of Object.entries(run.perCall))
      perCall[group] = (perCall[group] ?? 0) + (ms * run.result.requests) / requests;
  return { result, perCall };
}

/** Starts a helper process under tsx and waits for its IPC message of the given type. */
function startChild(
  script: string,
  env: Record<string, string>,
  ready: string,
): Promise<{ child: ChildProcess; message: Record<string, unknown> }> {
  const child = fork(path.join(here, script), [], {
    cwd: root,
    env,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s`)), 60_000);
    child.on("message", (message: Record<string, unknown>) => {
      if (message?.type === ready) {
        clearTimeout(timer);
        resolve({ child, message });
      }
    });
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) before starting`)));
  });
}

/** The floor's own session and wallet for each bench user, on the stack's Redis and database. */
async function seedFloor(redisUrl: string, mongoUri: string, users: readonly BenchUser[]): Promise<string[]> {
  const redis = new Redis(redisUrl);
  const mongo = await MongoClient.connect(mongoUri);
  const cookies: string[] = [];
  for (const user of users) {
    const token = randomUUID();
    await redis.set(`floor:sess:${token}`, JSON.stringify({ userId: user.id }));
    await mongo
      .db()
      .collection<{ _id: string; coins: number }>("floor_wallets")
      .updateOne({ _id: user.id }, { $set: { coins: 1_000_000 } }, { upsert: true });
    cookies.push(`floor=${token}`);
  }
  await mongo.close();
  redis.disconnect();
  return cookies;
}

/** A signed inbound SMS as a gateway sends it (HMAC over "<timestamp>.<raw body>"). */
function signedWebhook(from: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ from, to: "5555", text: "what time is it?", message_id: randomUUID() });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", WEBHOOK_SECRET).update(`${timestamp}.${body}`).digest("hex");
  return { body, headers: { "x-signature": `sha256=${signature}`, "x-signature-timestamp": timestamp } };
}

/**
 * Jobs/s of the workers on `queueName`: `enqueue` queues `count` jobs while the queue is paused;
 * the clock runs from resume to the last "completed" event, and so does the CPU time each group of
 * processes spent per job.
 */
async function drainRate(
  redisUrl: string,
  queueName: string,
  count: number,
  groups: Groups,
  enqueue: () => Promise<unknown>,
): Promise<{ jobsPerSecond: number; perJob: Record<string, number> }> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(queueName, { connection });
  const eventsConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const events = new QueueEvents(queueName, { connection: eventsConnection });
  await events.waitUntilReady();
  await queue.pause();
  const queued = enqueue();
  const deadline = Date.now() + 60_000;
  while ((await queue.getWaitingCount()) < count) {
    if (Date.now() > deadline) throw new Error(`${queueName}: the backlog of ${count} jobs was not queued within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  let completed = 0;
  const allDone = new Promise<number>((resolve) =>
    events.on("completed", () => {
      if (++completed === count) resolve(performance.now());
    }),
  );
  const before = cpuSample(groups);
  const started = performance.now();
  await queue.resume();
  const finished = await allDone;
  const after = cpuSample(groups);
  await queued;
  await events.close();
  await queue.close();
  connection.disconnect();
  eventsConnection.disconnect();
  const perJob = Object.fromEntries(Object.keys(groups).map((k) => [k, (after[k]! - before[k]!) / count]));
  return { jobsPerSecond: (count * 1000) / (finished - started), perJob };
}

function chatCall(client: BenchClient, api: string, user: BenchUser) {
  return async (): Promise<{ failure?: string; jobId?: string }> => {
    const res = await client.post(`${api}/api/textai/chat.php`, CHAT_BODY, { cookie: user.cookie });
    if (res.status !== 200) return { failure: `chat ${res.status}: ${res.body.slice(0, 200)}` };
    const body = JSON.parse(res.body) as { success?: boolean; message?: string; jobId?: string };
    if (!body.success || !body.message || !body.jobId)
      return { failure: `chat answered without a reply: ${res.body.slice(0, 200)}` };
    return { jobId: body.jobId };
  };
}

/** Wall-clock times (ms) of one chat call, to split it with the job's own BullMQ timestamps. */
interface TimedCall {
  jobId: string;
  sentAt: number;
  answeredAt: number;
}

/**
 * Where a chat call's time goes: API before the job is added (session, pricing, hold), waiting in
 * the queue, the worker's processing (hold check, reply, settle, pushes), and completion → answer.
 */
async function phases(queue: Queue, calls: readonly TimedCall[]): Promise<[string, Summary][]> {
  const accept: number[] = [];
  const wait: number[] = [];
  const work: number[] = [];
  const answer: number[] = [];
  for (const call of calls) {
    const job = await queue.getJob(call.jobId);
    if (!job?.processedOn || !job.finishedOn) continue;
    accept.push(job.timestamp - call.sentAt);
    wait.push(job.processedOn - job.timestamp);
    work.push(job.finishedOn - job.processedOn);
    answer.push(call.answeredAt - job.finishedOn);
  }
  return [
    ["send → job added (API: session, price, hold)", summarise(accept)],
    ["added → picked up (queue wait)", summarise(wait)],
    ["picked up → completed (worker)", summarise(work)],
    ["completed → HTTP answer (QueueEvents, reply)", summarise(answer)],
  ];
}

/** Records when each "job:completed" push arrives, and lets a caller wait for a given job's. */
class PushClock {
  private readonly arrived = new Map<string, number>();
  private readonly waiting = new Map<string, (at: number) => void>();

  constructor(socket: Socket) {
    socket.on("job:completed", (payload: { jobId: string }) => {
      const at = performance.now();
      const waiter = this.waiting.get(payload.jobId);
      if (waiter) {
        this.waiting.delete(payload.jobId);
        waiter(at);
      } else this.arrived.set(payload.jobId, at);
    });
  }

  when(jobId: string, timeoutMs = 30_000): Promise<number> {
    const at = this.arrived.get(jobId);
    if (at !== undefined) {
      this.arrived.delete(jobId);
      return Promise.resolve(at);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(jobId);
        reject(new Error(`no job:completed push for ${jobId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(jobId, (t) => {
        clearTimeout(timer);
        resolve(t);
      });
    });
  }
}

async function connectSocket(api: string, cookie: string): Promise<Socket> {
  const socket = io(api, { path: "/socket.io", transports: ["websocket"], extraHeaders: { cookie }, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

/** One BullMQ completion listener for the raw queue; a waiter is registered before each add. */
class RawCompletions {
  private readonly waiting = new Map<string, (at: number) => void>();

  constructor(events: QueueEvents) {
    events.on("completed", ({ jobId }) => {
      const at = performance.now();
      this.waiting.get(jobId)?.(at);
      this.waiting.delete(jobId);
    });
  }

  expect(jobId: string, timeoutMs = 30_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(jobId);
        reject(new Error(`raw job ${jobId} did not complete within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(jobId, (t) => {
        clearTimeout(timer);
        resolve(t);
      });
    });
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const load = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(" / ");

function checkLoad(name: string, result: LoadResult): void {
  if (result.failures > 0)
    throw new Error(`${name}: ${result.failures} of ${result.requests} calls failed; first: ${result.firstFailure}`);
}

function line(label: string, s: Summary): string {
  return `${label.padEnd(44)} p50 ${ms(s.p50).padStart(10)}  p99 ${ms(s.p99).padStart(10)}  mean ${ms(s.mean).padStart(10)}  (n=${s.n})`;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "storefront-bench-"));
  const admin = { username: "bench-admin", password: randomBytes(16).toString("hex") };
  const children: ChildProcess[] = [];
  let stack: Stack | undefined;
  const cleanup = async () => {
    await Promise.all(children.map((child) => stopProcess(child)));
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));

  try {
    console.log(
      `[bench] ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}`,
    );
    console.log(`[bench] load average at start (1/5/15 min): ${load()}`);
    console.log(
      `[bench] starting Redis, the MongoDB-compatible server, ${API_PROCESSES} API and ${CHAT_WORKERS} chat worker process(es) (throw-away data)`,
    );
    stack = await startStack({
      dataDir,
      persist: false,
      apiProcesses: API_PROCESSES,
      workers: [...Array.from({ length: CHAT_WORKERS }, () => "chat"), "sms-reply"],
      logDir: path.join(root, "test-artifacts", "bench-logs"),
      env: {
        NODE_ENV: "production",
        SESSION_SECRET: randomBytes(32).toString("hex"),
        ADMIN_USERNAME: admin.username,
        ADMIN_PASSWORD: admin.password,
        LOG_LEVEL: "warn",
        AI_PROVIDER: "offline",
        LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
        LOGIN_RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
        SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR: "100000",
        // The SMS settings below name a loopback gateway, which the API refuses to save otherwise.
        SMS_GATEWAY_ALLOW_PRIVATE: "true",
      },
      // BENCH_PROFILE_DIR: the API and workers write a V8 CPU profile there when they stop
      // (`npx tsx scripts/bench/profile-top.ts <dir>` prints the top frames).
      ...(PROFILE_DIR ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] } : {}),
    });
    const api = stack.apiUrls[0]!;
    /** The API process of a load lane (or backlog call): lanes are spread evenly, each user stays on one. */
    const apiFor = (lane: number) => stack!.apiUrls[lane % stack!.apiUrls.length]!;
    const workerConcurrency = stack.env.WORKER_CONCURRENCY_CHAT ?? "4 (default)";

    const bare = await startChild("bare-server.ts", { ...(process.env as Record<string, string>) }, "listening");
    children.push(bare.child);
    const bareUrl = `http://127.0.0.1:${String(bare.message.port)}/bare`;
    const concurrencyEnv = String(Number.parseInt(String(workerConcurrency), 10));
    const raw = await startChild(
      "raw-worker.ts",
      { ...(process.env as Record<string, string>), REDIS_URL: stack.redisUrl, RAW_QUEUE, RAW_CONCURRENCY: concurrencyEnv },
      "ready",
    );
    children.push(raw.child);
    const floorEnv = {
      ...(process.env as Record<string, string>),
      REDIS_URL: stack.redisUrl,
      MONGODB_URI: stack.mongoUri,
      FLOOR_QUEUE,
      FLOOR_CONCURRENCY: concurrencyEnv,
    };
    const floorWorker = await startChild("floor-worker.ts", floorEnv, "ready");
    children.push(floorWorker.child);
    const floor = await startChild("floor.ts", floorEnv, "listening");
    children.push(floor.child);
    const floorUrl = `http://127.0.0.1:${String(floor.message.port)}/floor`;

    const { users, adminCookie } = await makeUsers(api, CONCURRENCY, admin);
    const floorCookies = await seedFloor(stack.redisUrl, stack.mongoUri, users);
    const smsConfig = await postJson(
      `${api}/api/sms/integration/config.php`,
      {
        enabled: true,
        gateway_url: "http://127.0.0.1:9/unused",
        webhook_secret: WEBHOOK_SECRET,
        rate_limit_per_minute: 100,
        auto_reply_enabled: true,
        welcome_message: "Welcome",
        insufficient_funds_message: "Not enough coins",
      },
      adminCookie,
    );
    if (smsConfig.status !== 200) throw new Error(`SMS integration setup failed: ${smsConfig.status} ${await smsConfig.text()}`);
    console.log(`[bench] ${users.length} users with 1,000,000 coins each; chat worker concurrency ${workerConcurrency}`);

    // (a) Throughput: same client, same concurrency, warm-up first.
    const client = new BenchClient(CONCURRENCY);
    const bareCall = async (): Promise<string | undefined> => {
      const res = await client.post(bareUrl, CHAT_BODY);
      return res.status === 200 ? undefined : `bare ${res.status}`;
    };
    const chats = users.map((u, lane) => chatCall(client, apiFor(lane), u));
    const timed: TimedCall[] = [];
    let recording = false;
    const chatLane = async (_: number, lane: number) => {
      const sentAt = Date.now();
      const { failure, jobId } = await chats[lane]!();
      if (recording && jobId) timed.push({ jobId, sentAt, answeredAt: Date.now() });
      return failure;
    };
    const walletLane = async (_: number, lane: number) => {
      const res = await client.get(`${apiFor(lane)}/api/wallet/get.php`, { cookie: users[lane]!.cookie });
      return res.status === 200 ? undefined : `wallet ${res.status}`;
    };
    const floorLane = async (_: number, lane: number) => {
      const res = await client.post(floorUrl, CHAT_BODY, { cookie: floorCookies[lane]! });
      return res.status === 200 ? undefined : `floor ${res.status}`;
    };
    const webhookLane = async (_: number, lane: number) => {
      const { body, headers } = signedWebhook(users[lane]!.phone);
      const res = await client.postRaw(`${apiFor(lane)}/api/sms/integration/webhook.php`, body, headers);
      return res.status === 202 ? undefined : `webhook ${res.status}: ${res.body.slice(0, 200)}`;
    };

    console.log(
      `[bench] (a) throughput: every load warmed up first (${WARMUP} calls each), then ${REQUESTS} calls each at concurrency ${CONCURRENCY}`,
    );
    // The SMS-reply worker stays paused: this measures accepting (signature, dedup, enqueue) alone.
    const smsConnection = new Redis(stack.redisUrl, { maxRetriesPerRequest: null });
    const smsQueue = new Queue("sms-reply", { connection: smsConnection });
    await smsQueue.pause();
    const servers = {
      database: () => [stack!.mongo?.child.pid],
      Redis: () => [stack!.redis?.child.pid],
    };
    const apiPids = () => stack!.apis.map((p) => p.child.pid);
    const chatWorkerPids = () => stack!.workers.filter((w) => w.name.includes("chat")).map((p) => p.child.pid);
    const loads = {
      bare: { groups: { API: () => [bare.child.pid] }, lane: bareCall },
      wallet: { groups: { API: apiPids, ...servers }, lane: walletLane },
      floor: { groups: { API: () => [floor.child.pid], worker: () => [floorWorker.child.pid], ...servers }, lane: floorLane },
      webhook: { groups: { API: apiPids, ...servers }, lane: webhookLane },
      chat: { groups: { API: apiPids, worker: chatWorkerPids, ...servers }, lane: chatLane },
    };
    // Every process, the Java server included, compiles its hot code in the first few hundred calls
    // of each kind: measured only once all of them are warm, each load counts its own work alone.
    const loadEntries = Object.entries(loads) as [keyof typeof loads, (typeof loads)[keyof typeof loads]][];
    for (const [name, load] of loadEntries) checkLoad(`${name} warm-up`, await runLoad(WARMUP, CONCURRENCY, load.lane));
    // The loads take turns, a share of their calls each round: the machine's speed drifts over a run
    // (other work on it, its own caches), and a ratio of two loads measured minutes apart would carry
    // that drift. Each figure is the sum of its rounds.
    const rounds = Object.fromEntries(Object.keys(loads).map((name) => [name, [] as Measured[]])) as Record<
      keyof typeof loads,
      Measured[]
    >;
    for (let round = 0; round < ROUNDS; round++) {
      const calls = Math.floor(REQUESTS / ROUNDS) + (round < REQUESTS % ROUNDS ? 1 : 0);
      for (const [name, load] of loadEntries) {
        recording = name === "chat";
        const run = await cpuPerCall(load.groups, () => runLoad(calls, CONCURRENCY, load.lane));
        recording = false;
        checkLoad(name, run.result);
        rounds[name].push(run);
      }
    }
    const [bareRun, walletRun, floorRun, webhookRun, chatRun] = (["bare", "wallet", "floor", "webhook", "chat"] as const).map(
      (name) => combine(rounds[name]),
    ) as [Measured, Measured, Measured, Measured, Measured];
    const [bareResult, walletResult, floorResult, webhookResult, chatResult] = [
      bareRun,
      walletRun,
      floorRun,
      webhookRun,
      chatRun,
    ].map((run) => run.result) as [LoadResult, LoadResult, LoadResult, LoadResult, LoadResult];
    await smsQueue.obliterate({ force: true });
    await smsQueue.close();
    smsConnection.disconnect();
    checkLoad("chat", chatResult);
    console.log(`[bench] load average after (a): ${load()}`);

    // (b) Latency, one call at a time: HTTP send → pushed completion, against raw add → completed.
    console.log(`[bench] (b) latency: ${SERIAL_WARMUP} warm-up then ${SERIAL} calls each, one at a time, taking turns`);
    const socket = await connectSocket(api, users[0]!.cookie);
    const pushes = new PushClock(socket);
    const pushLatencies: number[] = [];
    const httpLatencies: number[] = [];
    const serialTimed: TimedCall[] = [];
    const floorLatencies: number[] = [];
    const redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue(RAW_QUEUE, { connection: redis });
    const eventsRedis = new Redis(stack.redisUrl, { maxRetriesPerRequest: null });
    const events = new QueueEvents(RAW_QUEUE, { connection: eventsRedis });
    await events.waitUntilReady();
    const completions = new RawCompletions(events);
    const rawLatencies: number[] = [];
    // The three take turns, one call each, as the loads of (a) take rounds: the machine settles for
    // a while after (a), and a ratio of two series run one after the other would carry that drift.
    for (let i = 0; i < SERIAL_WARMUP + SERIAL; i++) {
      const measured = i >= SERIAL_WARMUP;
      const sentAt = Date.now();
      const t0 = performance.now();
      const { failure, jobId } = await chats[0]!();
      const answered = performance.now();
      const answeredAt = Date.now();
      if (failure || !jobId) throw new Error(failure ?? "no job id");
      const pushed = await pushes.when(jobId);
      if (measured) {
        pushLatencies.push(pushed - t0);
        httpLatencies.push(answered - t0);
        serialTimed.push({ jobId, sentAt, answeredAt });
      }

      const f0 = performance.now();
      const floorFailure = await floorLane(i, 0);
      if (floorFailure) throw new Error(floorFailure);
      if (measured) floorLatencies.push(performance.now() - f0);

      const rawId = `raw-${i}`;
      const done = completions.expect(rawId);
      const r0 = performance.now();
      await queue.add("trivial", { i }, { jobId: rawId, removeOnComplete: true, removeOnFail: true });
      const completed = await done;
      if (measured) rawLatencies.push(completed - r0);
    }
    socket.disconnect();
    await events.close();
    await queue.close();
    const chatQueue = new Queue("chat", { connection: redis });
    const loadedPhases = await phases(chatQueue, timed);
    const serialPhases = await phases(chatQueue, serialTimed);
    await chatQueue.close();
    eventsRedis.disconnect();
    redis.disconnect();
    client.close();
    console.log(`[bench] load average after (b): ${load()}`);

    // (c) Worker throughput: the same backlog through the chat worker and through a no-op worker.
    console.log(`[bench] (c) worker throughput: a backlog of ${BACKLOG} jobs each, concurrency ${concurrencyEnv}`);
    const backlogClient = new BenchClient(BACKLOG);
    // The chat backlog's HTTP calls wait for their jobs, so the API answers them while the worker drains.
    const chatDrain = await drainRate(stack.redisUrl, "chat", BACKLOG, loads.chat.groups, () =>
      Promise.all(
        Array.from({ length: BACKLOG }, async (_, i) => {
          const res = await backlogClient.post(`${apiFor(i)}/api/textai/chat.php`, CHAT_BODY, {
            cookie: users[i % users.length]!.cookie,
          });
          if (res.status !== 200) throw new Error(`backlog chat ${res.status}: ${res.body.slice(0, 200)}`);
        }),
      ),
    );
    backlogClient.close();
    const addBacklog = async (queueName: string, data: (i: number) => Record<string, unknown>) => {
      const connection = new Redis(stack!.redisUrl, { maxRetriesPerRequest: null });
      const queue = new Queue(queueName, { connection });
      await queue.addBulk(
        Array.from({ length: BACKLOG }, (_, i) => ({ name: "backlog", data: data(i), opts: { removeOnComplete: true } })),
      );
      await queue.close();
      connection.disconnect();
    };
    const rawDrain = await drainRate(
      stack.redisUrl,
      RAW_QUEUE,
      BACKLOG,
      { worker: () => [raw.child.pid], Redis: servers.Redis },
      () => addBacklog(RAW_QUEUE, (i) => ({ i })),
    );
    // The least a charged job's worker can do (one settle update): how close to the no-op worker any design could come.
    const floorDrain = await drainRate(
      stack.redisUrl,
      FLOOR_QUEUE,
      BACKLOG,
      { worker: () => [floorWorker.child.pid], ...servers },
      () => addBacklog(FLOOR_QUEUE, (i) => ({ userId: users[i % users.length]!.id })),
    );

    const { jobsPerSecond: chatJobsPerSecond } = chatDrain;
    const { jobsPerSecond: rawJobsPerSecond } = rawDrain;
    const { jobsPerSecond: floorJobsPerSecond } = floorDrain;
    const bareLat = summarise(bareResult.latenciesMs);
    const chatLat = summarise(chatResult.latenciesMs);
    const walletLat = summarise(walletResult.latenciesMs);
    const walletRps = requestsPerSecond(walletResult);
    const floorRps = requestsPerSecond(floorResult);
    const webhookRps = requestsPerSecond(webhookResult);
    const floorSerial = summarise(floorLatencies);
    const bareRps = requestsPerSecond(bareResult);
    const chatRps = requestsPerSecond(chatResult);
    const push = summarise(pushLatencies);
    const httpSerial = summarise(httpLatencies);
    const rawLat = summarise(rawLatencies);

    console.log("");
    console.log(`(a) throughput at concurrency ${CONCURRENCY}, ${REQUESTS} calls each`);
    console.log(`    bare Express handler                       ${bareRps.toFixed(1).padStart(8)} req/s`);
    console.log(`    POST /api/textai/chat.php                  ${chatRps.toFixed(1).padStart(8)} req/s`);
    console.log(
      `    chat / bare requests/s                     ${ratio(chatRps, bareRps)} (bare is ${ratio(bareRps, chatRps)} faster)`,
    );
    console.log(`    floor (session, debit, add, settle)        ${floorRps.toFixed(1).padStart(8)} req/s`);
    console.log(
      `    floor / bare requests/s                    ${ratio(floorRps, bareRps)} (what chat / bare can reach at most)`,
    );
    console.log(`    GET /api/wallet/get.php                    ${walletRps.toFixed(1).padStart(8)} req/s`);
    console.log(`    POST /api/sms/integration/webhook.php      ${webhookRps.toFixed(1).padStart(8)} req/s`);
    console.log(`    ${line("bare latency", bareLat)}`);
    console.log(`    ${line("wallet latency", walletLat)}`);
    console.log(`    ${line("chat latency", chatLat)}`);
    console.log(
      `    chat / bare latency                        p50 ${ratio(chatLat.p50, bareLat.p50)}  p99 ${ratio(chatLat.p99, bareLat.p99)}`,
    );
    console.log("    CPU ms per call (all threads; two cores give 2,000 CPU ms a second):");
    const cpuColumns = Object.keys(chatRun.perCall);
    const cpuRow = (label: string, perCall: Record<string, number>) => {
      const total = Object.values(perCall).reduce((a, b) => a + b, 0);
      const cells = cpuColumns.map((k) => `${k} ${(perCall[k] === undefined ? "-" : perCall[k].toFixed(2)).padStart(6)}`);
      return `      ${label.padEnd(8)}${cells.join("  ")}  total ${total.toFixed(2).padStart(6)}`;
    };
    console.log(cpuRow("chat", chatRun.perCall));
    console.log(cpuRow("floor", floorRun.perCall));
    console.log(cpuRow("wallet", walletRun.perCall));
    console.log(cpuRow("webhook", webhookRun.perCall));
    console.log(cpuRow("bare", bareRun.perCall));
    console.log("    where a chat call's time goes (ms, from the job's BullMQ timestamps):");
    for (const [label, s] of loadedPhases) console.log(`      ${line(label, s)}`);
    console.log("");
    console.log(`(b) latency, one call at a time, ${SERIAL} calls each`);
    console.log(`    ${line("chat HTTP send → pushed job:completed", push)}`);
    console.log(`    ${line("chat HTTP send → HTTP answer", httpSerial)}`);
    console.log(`    ${line("floor send → answer (job completed)", floorSerial)}`);
    console.log(`    ${line("raw BullMQ add → completed (QueueEvents)", rawLat)}`);
    console.log(
      `    push / raw                                 p50 ${ratio(push.p50, rawLat.p50)}  p99 ${ratio(push.p99, rawLat.p99)}`,
    );
    console.log(
      `    added by the product                       p50 ${ms(push.p50 - rawLat.p50)}  p99 ${ms(push.p99 - rawLat.p99)}`,
    );
    console.log("    where a chat call's time goes (ms, from the job's BullMQ timestamps):");
    for (const [label, s] of serialPhases) console.log(`      ${line(label, s)}`);
    console.log("");
    console.log(
      `(c) worker throughput, a backlog of ${BACKLOG} jobs, concurrency ${concurrencyEnv} in each of ${CHAT_WORKERS} chat process(es), one raw and one floor process`,
    );
    console.log(`    chat jobs (offline provider)               ${chatJobsPerSecond.toFixed(1).padStart(8)} jobs/s`);
    console.log(`    no-op BullMQ worker                        ${rawJobsPerSecond.toFixed(1).padStart(8)} jobs/s`);
    console.log(`    floor worker (one settle update)           ${floorJobsPerSecond.toFixed(1).padStart(8)} jobs/s`);
    console.log(
      `    floor worker / raw jobs/s                  ${ratio(floorJobsPerSecond, rawJobsPerSecond)} (what worker / raw can reach at most)`,
    );
    console.log(`    chat / floor worker jobs/s                 ${ratio(chatJobsPerSecond, floorJobsPerSecond)}`);
    console.log("    CPU ms per job while the backlog drained:");
    console.log(cpuRow("chat", chatDrain.perJob));
    console.log(cpuRow("floor", floorDrain.perJob));
    console.log(cpuRow("no-op", rawDrain.perJob));
    console.log("");
    console.log(`scale: ${API_PROCESSES} API process(es), ${CHAT_WORKERS} chat worker process(es)`);
    console.log("ratios (issue 12 goals: chat/floor >= 0.5, chat/bare >= 0.2, wallet/bare >= 0.4,");
    console.log("        push/floor p50 <= 1.5 and p99 <= 2, webhook/bare >= 0.5, worker/raw >= 0.5)");
    console.log(`chat / floor requests/s ${ratio(chatRps, floorRps)}`);
    console.log(`chat / bare requests/s ${ratio(chatRps, bareRps)}`);
    console.log(`wallet / bare requests/s ${ratio(walletRps, bareRps)}`);
    console.log(`push / floor p50 ${ratio(push.p50, floorSerial.p50)} p99 ${ratio(push.p99, floorSerial.p99)}`);
    console.log(`webhook / bare requests/s ${ratio(webhookRps, bareRps)}`);
    console.log(`worker / raw jobs/s ${ratio(chatJobsPerSecond, rawJobsPerSecond)}`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[bench] failed: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);
