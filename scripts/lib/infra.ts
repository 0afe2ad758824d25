/**
 * Local stand-ins for the production engines, started when MONGODB_URI / REDIS_URL are unset:
 * Debian's redis-server and mongo-java-server (a MongoDB-wire-compatible server from Maven
 * Central; docs/decisions.md says why not FerretDB). Whatever is missing is installed here,
 * so a fresh machine and CI need nothing done by hand.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, openSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer, connect } from "node:net";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const MONGO_SERVER_SRC = path.resolve(here, "../mongo-server");
const MONGO_SERVER_VERSION = "1.47.0";
export const cacheDir = process.env.STOREFRONT_CACHE ?? path.join(homedir(), ".cache", "storefront");

export interface RunningService {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function log(message: string): void {
  process.stderr.write(`[infra] ${message}\n`);
}

export function which(binary: string): string | null {
  const found = spawnSync("sh", ["-c", `command -v ${binary}`], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : null;
}

let aptUpdated = false;

/** Installs a Debian package when its binary is missing, or explains what to install. */
export function ensureBinary(binary: string, debianPackage: string): string {
  const existing = which(binary);
  if (existing) return existing;
  if (process.getuid?.() !== 0 || !which("apt-get")) {
    throw new Error(`${binary} is missing: install the Debian package "${debianPackage}" (or set the matching *_URL variable)`);
  }
  log(`installing ${debianPackage} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (!aptUpdated) {
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    aptUpdated = true;
  }
  const result = spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", debianPackage], {
    stdio: "inherit",
    env,
  });
  const installed = which(binary);
  if (result.status !== 0 || !installed) throw new Error(`apt-get could not install ${debianPackage}`);
  return installed;
}

/** Whether `port` can be bound on 127.0.0.1 now (0: any; answers the port bound). */
function tryBind(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.on("error", () => resolve(null));
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : null));
    });
  });
}

/**
 * Throws, naming the port, when `port` cannot be listened on at `host` now (another program has
 * it): `npm start` asks before it starts anything, so a taken port leaves nothing running.
 */
export function assertPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === "EADDRINUSE"
            ? `port ${port} on ${host} is already in use (another npm start?); set PORT to a free one`
            : `cannot listen on ${host}:${port}: ${error.message}`,
        ),
      ),
    );
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

/** The lowest port the kernel hands out to outgoing connections (Linux; 32768 elsewhere). */
function ephemeralLow(): number {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/u)[0]) || 32768;
  } catch {
    return 32768;
  }
}

/** The ports freePort has answered in this process. */
const handedOut = new Set<number>();

/**
 * A port free now, for a server started a moment later. Taken below the kernel's ephemeral range:
 * a port the kernel picked for a listener (port 0) can be handed to an outgoing connection before
 * the server binds it, which failed a test run with EADDRINUSE when many connections were open.
 */
export async function freePort(): Promise<number> {
  const high = Math.min(ephemeralLow(), 65536) - 1;
  // Above 10080, the highest port browsers refuse to fetch from.
  const low = Math.max(10_081, high - 12_000);
  for (let tries = 0; tries < 50 && high > low; tries++) {
    const candidate = low + Math.floor(Math.random() * (high - low));
    // Two picks of this process before either server binds would otherwise both find it free.
    if (handedOut.has(candidate)) continue;
    const port = await tryBind(candidate);
    if (port === null) continue;
    handedOut.add(port);
    return port;
  }
  const any = await tryBind(0);
  if (any === null) throw new Error("no free port");
  return any;
}

export async function waitForPort(port: number, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`process exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`port ${port} did not open within ${timeoutMs} ms`);
}

/** Whether a process with this id is running (signal 0 tests for it without sending anything). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, then SIGKILL if the process has not exited after `graceMs`; resolves once it exited. */
export function stopProcess(child: ChildProcess, graceMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** A server that did not come up is not left running: stopped, then the start's error goes on. */
const stoppedOnFailure = (child: ChildProcess) => async (error: unknown) => {
  await stopProcess(child, 2000);
  throw error;
};

export interface RedisOptions {
  /** Directory for the append-only file; omitted means no persistence (tests). */
  dataDir?: string;
  logFile?: string;
  /** Fixed port (a restart after a crash keeps the address clients know). */
  port?: number;
  /** Java heap, e.g. "4g" for a million-row measurement; 768m otherwise. */
  heap?: string;
}

export async function startRedis(options: RedisOptions = {}): Promise<RunningService> {
  const binary = ensureBinary("redis-server", "redis-server");
  const port = options.port ?? (await freePort());
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--protected-mode", "yes"];
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    // everysec, as in docker-compose.yml: Redis write()s the AOF before it answers, so a killed
    // redis-server loses no acknowledged write; the fsync policy only matters if the machine dies.
    args.push("--dir", options.dataDir, "--appendonly", "yes", "--appendfsync", "everysec");
  } else {
    args.push("--appendonly", "no");
  }
  const out = options.logFile ? openSync(options.logFile, "a") : "ignore";
  const child = spawn(binary, args, { stdio: ["ignore", out, out] });
  await waitForPort(port, 10_000, child).catch(stoppedOnFailure(child));
  return { url: `redis://127.0.0.1:${port}`, process: child, stop: () => stopProcess(child) };
}

/** Fetches mongo-java-server's jars with Maven and compiles the launcher, once per machine. */
function ensureMongoServer(): { java: string; classpath: string } {
  const java = ensureBinary("java", "default-jre-headless");
  const home = path.join(cacheDir, `mongo-java-server-${MONGO_SERVER_VERSION}`);
  const lib = path.join(home, "lib");
  const source = path.join(MONGO_SERVER_SRC, "MongoServerMain.java");
  // One compiled launcher per version of its source, so an edit is compiled again; compiled
  // beside it and renamed into place, so concurrent runs never see a half-written directory.
  const hash = createHash("sha256").update(readFileSync(source)).digest("hex").slice(0, 16);
  const classes = path.join(home, `classes-${hash}`);
  const classpath = `${classes}${path.delimiter}${lib}/*`;
  if (existsSync(path.join(classes, "MongoServerMain.class"))) return { java, classpath };
  const javac = ensureBinary("javac", "default-jdk-headless");
  if (!existsSync(lib) || readdirSync(lib).length === 0) fetchMongoServer(lib);
  const building = `${classes}.${process.pid}`;
  mkdirSync(building, { recursive: true });
  const compiled = spawnSync(javac, ["-d", building, "-cp", `${lib}/*`, source], { stdio: "inherit" });
  if (compiled.status !== 0) throw new Error("javac could not compile the MongoDB-compatible server launcher");
  try {
    renameSync(building, classes);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another run got there first
  }
  return { java, classpath };
}

function fetchMongoServer(lib: string): void {
  const mvn = ensureBinary("mvn", "maven");
  log(`fetching mongo-java-server ${MONGO_SERVER_VERSION} from Maven Central`);
  const fetched = spawnSync(
    mvn,
    ["-q", "-B", "-f", path.join(MONGO_SERVER_SRC, "pom.xml"), "dependency:copy-dependencies", `-DoutputDirectory=${lib}`],
    { stdio: "inherit" },
  );
  if (fetched.status !== 0 || !existsSync(lib) || readdirSync(lib).length === 0) {
    throw new Error("Maven could not fetch mongo-java-server");
  }
}

export interface MongoOptions {
  /** H2 file that keeps the data; omitted means in memory (tests). */
  dataFile?: string;
  logFile?: string;
  /** Fixed port (a restart after a crash keeps the address clients know). */
  port?: number;
  /** Java heap, e.g. "4g" for a million-row measurement; 768m otherwise. */
  heap?: string;
}

export async function startMongo(options: MongoOptions = {}): Promise<RunningService> {
  const { java, classpath } = ensureMongoServer();
  const port = options.port ?? (await freePort());
  const args = [
    `-Xmx${options.heap ?? "768m"}`,
    ...(process.env.MONGO_JAVA_OPTS ?? "").split(/\s+/u).filter(Boolean),
    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
    "-cp",
    classpath,
    "MongoServerMain",
  ];
  args.push("127.0.0.1", String(port));
  if (options.dataFile) {
    mkdirSync(path.dirname(options.dataFile), { recursive: true });
    args.push(options.dataFile);
  }
  const out = options.logFile ? openSync(options.logFile, "a") : "ignore";
  const child = spawn(java, args, { stdio: ["ignore", out, out] });
  await waitForPort(port, 60_000, child).catch(stoppedOnFailure(child));
  return { url: `mongodb://127.0.0.1:${port}/storefront`, process: child, stop: () => stopProcess(child) };
}

/** Where Debian's package puts the headless shell itself (its /usr/bin entry is a shell script around it). */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

/**
 * Debian's Chromium headless shell for browser tests (no Playwright browser download exists here):
 * Chromium's engine without the desktop browser around it, which drives the same pages for about a
 * third less CPU than `chromium --headless=new` (docs/performance.md, "The test run").
 */
export function ensureHeadlessChromium(): string {
  if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  const installed = ensureBinary("chromium-headless-shell", "chromium-headless-shell");
  return existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : installed;
}

/**
 * Debian's full Chromium, for the one thing the headless shell does not do: show notifications (its
 * `Notification.permission` stays "denied" whatever is granted). The Web Push browser test runs it
 * in its new headless mode.
 */
export function ensureChromium(): string {
  return ensureBinary("chromium", "chromium");
}
