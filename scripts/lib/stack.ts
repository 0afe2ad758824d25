/**
 * Starts the whole product as separate processes: Redis and the MongoDB-compatible server
 * (unless URLs are given), N API processes and worker processes per queue. Used by `npm start`,
 * the test suites (once per run) and the benchmarks. Every process is supervised: one that exits
 * on its own is started again with backoff, on the same port and data (supervisor.ts).
 */
import { fork, type ChildProcess } from "node:child_process";
import { openSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { QUEUE_NAMES } from "@storefront/shared";
import { buildServer, type ServerProgram } from "./build-server";
import { startFront, type Front } from "./front";
import { freePort, startMongo, startRedis, stopProcess, waitForPort } from "./infra";
import { supervise, type RestartPolicy, type Supervised } from "./supervisor";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Stack traces of the built programs point at the TypeScript lines. */
const programFlags = ["--enable-source-maps"];

export interface StackOptions {
  mongoUri?: string;
  redisUrl?: string;
  /** Keep data across runs (npm start) instead of throw-away (tests). */
  dataDir: string;
  persist: boolean;
  /**
   * API processes (1). With more than one and a `port`, the stack keeps that port itself and hands
   * each client's connections to one of them (front.ts); each process also listens on a port of its own.
   */
  apiProcesses?: number;
  /** Worker processes to run: one entry per process, each a comma-separated queue list. */
  workers?: string[];
  env?: Record<string, string>;
  /** Extra node flags for the API and worker processes (the benchmark's `--cpu-prof`). */
  nodeArgs?: string[];
  /** The public port: the API process's own, or the front's when there are several. */
  port?: number;
  logDir?: string;
  inheritOutput?: boolean;
  /** Backoff of the supervisor (tests shorten it); supervisor.ts has the defaults. */
  restartPolicy?: RestartPolicy;
}

/** A supervised API or worker process and the environment it runs with. */
export interface ManagedProcess extends Supervised {
  env: Record<string, string>;
}

export interface Stack {
  mongoUri: string;
  redisUrl: string;
  /** Where clients call: the front with several API processes and a `port`, else the first API process. */
  url: string;
  apiUrls: string[];
  apis: ManagedProcess[];
  workers: ManagedProcess[];
  /** The local Redis and MongoDB-compatible server, when the stack started them. */
  redis?: Supervised;
  mongo?: Supervised;
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

/** What a start has running: stopped again if a later step of the start fails. */
type Stoppable = Pick<Supervised, "halt" | "stop">;

/**
 * Starts the stack; if any step fails (a taken port, a process that does not come up), everything
 * it had started is stopped before the error goes on: a failed start leaves nothing running.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const started: Stoppable[] = [];
  try {
    return await startStackProcesses(options, started);
  } catch (error) {
    for (const p of started) p.halt();
    await Promise.allSettled(started.map((p) => p.stop()));
    throw error;
  }
}

/**
 * Promise.all for starts, but waiting for every one to settle before the first failure is thrown:
 * a process still starting when another failed is then known, and stopped with the rest.
 */
async function allStarted<T extends readonly unknown[]>(starts: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

async function startStackProcesses(options: StackOptions, started: Stoppable[]): Promise<Stack> {
  const track = <S extends Stoppable>(process: S): S => {
    started.push(process);
    return process;
  };
  const logDir = options.logDir;
  if (logDir) mkdirSync(logDir, { recursive: true });
  const inherit = options.inheritOutput ?? false;
  /** The children that said they are ready and are not stopping or gone: the front's choice. */
  const serving = new Set<ChildProcess>();
  const stopServing = (child: ChildProcess) => {
    serving.delete(child);
    return stopChild(child);
  };
  const supervision = { stopChild: stopServing, ...(options.restartPolicy ? { policy: options.restartPolicy } : {}) };

  let mongoUri = options.mongoUri;
  let redisUrl = options.redisUrl;
  const [mongoPort, redisPort] = await Promise.all([freePort(), freePort()]);
  // Built beside the servers' start: a fraction of a second, and every start and restart is fast.
  const [programs, mongo, redis] = await allStarted([
    buildServer(root),
    mongoUri
      ? Promise.resolve(undefined)
      : supervise(
          {
            name: "mongo",
            start: async () =>
              (
                await startMongo({
                  port: mongoPort,
                  ...(options.persist ? { dataFile: path.join(options.dataDir, "mongo", "storefront.mv") } : {}),
                  ...(logDir ? { logFile: path.join(logDir, "mongo.log") } : {}),
                })
              ).process,
          },
          supervision,
        ).then(track),
    redisUrl
      ? Promise.resolve(undefined)
      : supervise(
          {
            name: "redis",
            start: async () =>
              (
                await startRedis({
                  port: redisPort,
                  ...(options.persist ? { dataDir: path.join(options.dataDir, "redis") } : {}),
                  ...(logDir ? { logFile: path.join(logDir, "redis.log") } : {}),
                })
              ).process,
          },
          supervision,
        ).then(track),
  ]);
  mongoUri ??= `mongodb://127.0.0.1:${mongoPort}/storefront`;
  redisUrl ??= `redis://127.0.0.1:${redisPort}`;

  const baseEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    MONGODB_URI: mongoUri,
    REDIS_URL: redisUrl,
    DATA_DIR: options.dataDir,
    ...options.env,
  };

  const processes: ManagedProcess[] = [];

  async function launch(
    name: string,
    program: ServerProgram,
    env: Record<string, string>,
    ready: "listening" | "ready",
  ): Promise<ManagedProcess> {
    const supervised = track(
      await supervise(
        {
          name,
          async start() {
            const out = output(logDir, name, inherit);
            const child = fork(programs[program], [], {
              cwd: root,
              env,
              execArgv: [...programFlags, ...(options.nodeArgs ?? [])],
              stdio: ["ignore", out, out, "ipc"],
            });
            try {
              await waitForMessage(child, ready, 90_000);
            } catch (error) {
              child.kill("SIGKILL");
              throw error;
            }
            serving.add(child);
            child.once("exit", () => serving.delete(child));
            return child;
          },
        },
        supervision,
      ),
    );
    const managed = Object.assign(supervised, { env }) as ManagedProcess;
    processes.push(managed);
    return managed;
  }

  const apiCount = options.apiProcesses ?? 1;
  const fronted = apiCount > 1 && options.port !== undefined;
  const apiPorts = await Promise.all(
    Array.from({ length: apiCount }, (_, i) => (i === 0 && options.port !== undefined && !fronted ? options.port : freePort())),
  );
  // Behind the front, each process's own port is for this machine's health checks only.
  const apiHost: Record<string, string> = fronted ? { HOST: "127.0.0.1" } : {};
  const apis = await allStarted(
    apiPorts.map((port, i) => launch(`api-${i + 1}`, "api", { ...baseEnv, ...apiHost, PORT: String(port) }, "listening")),
  );
  await Promise.all(apiPorts.map((port) => waitForPort(port, 30_000)));
  const host = baseEnv.HOST ?? "127.0.0.1";
  const front: Front | undefined = fronted
    ? await startFront(options.port!, host, () => apis.map((api) => (serving.has(api.child) ? api.child : undefined)))
    : undefined;
  if (front) track({ halt: () => front.close(), stop: async () => undefined });

  let workerIndex = 0;
  const startWorker = (queues: string, extraEnv: Record<string, string> = {}) =>
    launch(
      `worker-${++workerIndex}-${queues.replace(/,/gu, "+")}`,
      "workers",
      { ...baseEnv, WORKER_QUEUES: queues, ...extraEnv },
      "ready",
    );
  const workers = await allStarted((options.workers ?? QUEUE_NAMES).map((queues) => startWorker(queues)));

  return {
    mongoUri,
    redisUrl,
    url: `http://127.0.0.1:${front ? front.port : apiPorts[0]}`,
    apiUrls: apiPorts.map((port) => `http://127.0.0.1:${port}`),
    apis,
    workers,
    ...(redis ? { redis } : {}),
    ...(mongo ? { mongo } : {}),
    env: baseEnv,
    async startWorker(queues, extraEnv) {
      const worker = await startWorker(queues, extraEnv);
      workers.push(worker);
      return worker;
    },
    async stop() {
      // Ctrl+C reaches every child at once: nothing that exits from here on is restarted.
      for (const p of [...processes, redis, mongo]) p?.halt();
      front?.close();
      await Promise.all(processes.map((p) => p.stop()));
      await Promise.all([redis?.stop(), mongo?.stop()]);
    },
  };
}
