/**
 * Starts the whole product as separate processes: Redis and the MongoDB-compatible server
 * (unless URLs are given), N API processes and worker processes per queue. Used by `npm start`,
 * the test suites (once per run) and the benchmarks.
 */
import { fork, type ChildProcess } from "node:child_process";
import { openSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { QUEUE_NAMES } from "@storefront/shared";
import { freePort, startMongo, startRedis, stopProcess, waitForPort, type RunningService } from "./infra";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tsxLoader = ["--import", "tsx"];

export interface StackOptions {
  mongoUri?: string;
  redisUrl?: string;
  /** Keep data across runs (npm start) instead of throw-away (tests). */
  dataDir: string;
  persist: boolean;
  apiProcesses?: number;
  /** Worker processes to run: one entry per process, each a comma-separated queue list. */
  workers?: string[];
  env?: Record<string, string>;
  /** Fixed port of the first API process; others get free ports. */
  port?: number;
  logDir?: string;
  inheritOutput?: boolean;
}

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  env: Record<string, string>;
  /** Starts it again (after a kill) with the same environment. */
  restart(): Promise<void>;
}

export interface Stack {
  mongoUri: string;
  redisUrl: string;
  apiUrls: string[];
  apis: ManagedProcess[];
  workers: ManagedProcess[];
  env: Record<string, string>;
  startWorker(queues: string, extraEnv?: Record<string, string>): Promise<ManagedProcess>;
  stop(): Promise<void>;
}

function output(logDir: string | undefined, name: string, inherit: boolean): "inherit" | "ignore" | number {
  if (inherit) return "inherit";
  if (!logDir) return "ignore";
  mkdirSync(logDir, { recursive: true });
  return openSync(path.join(logDir, `${name}.log`), "a");
}

/** API and worker processes get longer than the servers: workers finish active jobs first. */
const stopChild = (child: ChildProcess) => stopProcess(child, 10_000);

/** Waits for a worker process to say it is consuming its queues. */
function waitForMessage(child: ChildProcess, type: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${type}" from process within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: unknown) => {
      if ((message as { type?: string })?.type === type) {
        clearTimeout(timer);
        child.off("message", onMessage);
        resolve();
      }
    };
    child.on("message", onMessage);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited (${code}) before "${type}"`));
    });
  });
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const services: RunningService[] = [];
  const logDir = options.logDir;
  if (logDir) mkdirSync(logDir, { recursive: true });
  const inherit = options.inheritOutput ?? false;

  let mongoUri = options.mongoUri;
  let redisUrl = options.redisUrl;
  const [mongo, redis] = await Promise.all([
    mongoUri
      ? null
      : startMongo({
          ...(options.persist ? { dataFile: path.join(options.dataDir, "mongo", "storefront.mv") } : {}),
          ...(logDir ? { logFile: path.join(logDir, "mongo.log") } : {}),
        }),
    redisUrl
      ? null
      : startRedis({
          ...(options.persist ? { dataDir: path.join(options.dataDir, "redis") } : {}),
          ...(logDir ? { logFile: path.join(logDir, "redis.log") } : {}),
        }),
  ]);
  if (mongo) services.push(mongo);
  if (redis) services.push(redis);
  mongoUri ??= mongo!.url;
  redisUrl ??= redis!.url;

  const baseEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    MONGODB_URI: mongoUri,
    REDIS_URL: redisUrl,
    DATA_DIR: options.dataDir,
    ...options.env,
  };

  const processes: ManagedProcess[] = [];

  function launch(
    name: string,
    script: string,
    env: Record<string, string>,
    ready: "listening" | "ready",
  ): Promise<ManagedProcess> {
    const managed: ManagedProcess = {
      name,
      env,
      child: undefined as unknown as ChildProcess,
      async restart() {
        await stopChild(managed.child);
        await spawnIt();
      },
    };
    const spawnIt = async () => {
      const out = output(logDir, name, inherit);
      managed.child = fork(path.join(root, script), [], {
        cwd: root,
        env,
        execArgv: tsxLoader,
        stdio: ["ignore", out, out, "ipc"],
      });
      await waitForMessage(managed.child, ready, 90_000);
    };
    processes.push(managed);
    return spawnIt().then(() => managed);
  }

  const apiCount = options.apiProcesses ?? 1;
  const apiPorts = await Promise.all(
    Array.from({ length: apiCount }, (_, i) => (i === 0 && options.port !== undefined ? options.port : freePort())),
  );
  const apis = await Promise.all(
    apiPorts.map((port, i) => launch(`api-${i + 1}`, "api/src/main.ts", { ...baseEnv, PORT: String(port) }, "listening")),
  );
  await Promise.all(apiPorts.map((port) => waitForPort(port, 30_000)));

  let workerIndex = 0;
  const startWorker = (queues: string, extraEnv: Record<string, string> = {}) =>
    launch(
      `worker-${++workerIndex}-${queues.replace(/,/gu, "+")}`,
      "workers/src/main.ts",
      { ...baseEnv, WORKER_QUEUES: queues, ...extraEnv },
      "ready",
    );
  const workers = await Promise.all((options.workers ?? QUEUE_NAMES).map((queues) => startWorker(queues)));

  return {
    mongoUri,
    redisUrl,
    apiUrls: apiPorts.map((port) => `http://127.0.0.1:${port}`),
    apis,
    workers,
    env: baseEnv,
    async startWorker(queues, extraEnv) {
      const worker = await startWorker(queues, extraEnv);
      workers.push(worker);
      return worker;
    },
    async stop() {
      await Promise.all(processes.map((p) => stopChild(p.child)));
      await Promise.all(services.map((s) => s.stop()));
    },
  };
}
