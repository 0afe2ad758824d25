/**
 * The real SMS gateways operators run, for the gateway suites (tests/integration/sms-jasmin.test.ts,
 * sms-kannel.test.ts): Jasmin 0.11.1 from PyPI on Debian's RabbitMQ, and Debian's Kannel 1.4.5.
 * Whatever is missing is installed here, once per machine (apt-get for rabbitmq-server and kannel,
 * pip into a virtualenv under ~/.cache/storefront for Jasmin); each suite starts its gateway once,
 * on loopback ports and throw-away folders of its own, and stops it at the end.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose, { type Connection } from "mongoose";
import { expect } from "vitest";
import { cacheDir, ensureBinary, freePort, startRedis, waitForPort, which, type RunningService } from "../../scripts/lib/infra";
import { startStack, type Stack } from "../../scripts/lib/stack";
import { SMS_INTEGRATION_DEFAULTS } from "@storefront/shared";
import { CaptureProxy, type Captured } from "../peers/capture-proxy";
import { OpenAiPeer } from "../peers/openai";
import { SmppServerPeer } from "../peers/sms-smpp-server";
import { TEST_ADMIN, TEST_LIMITS } from "../setup/global";
import { databaseNamed } from "./api-process";
import { Client } from "./client";
import { until } from "./realtime";

const JASMIN_VERSION = "0.11.1";
/**
 * Jasmin 0.11.1 (the newest release) never maps a delivery receipt to its message:
 * managers/listeners.py builds the submit_sm_resp DLR from `_pdu.response`, `_pdu` being the
 * SubmitSM request, which has no `response` (AttributeError on every submit, logged by Jasmin);
 * the response is `r.response`. The suites run a copy with that one line fixed, so receipts work
 * as they do once Jasmin fixes it; docs/operations.md tells operators of the defect.
 */
const JASMIN_HOME = path.join(cacheDir, `jasmin-${JASMIN_VERSION}-dlr-fix`);

function log(message: string): void {
  process.stderr.write(`[sms-gateways] ${message}\n`);
}

/** Seconds spent installing in this process (the report of a fresh machine's first run). */
const installSeconds: Record<string, number> = {};

function timed<T>(what: string, work: () => T): T {
  const started = Date.now();
  const result = work();
  installSeconds[what] = (Date.now() - started) / 1000;
  log(`${what} installed in ${installSeconds[what]} s`);
  return result;
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync(command, args, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (result.status !== 0) throw new Error(`${what} failed (${command} ${args.join(" ")})`);
}

/** Jasmin's Python, in a virtualenv of its own under the cache, with the receipt fix applied. */
function ensureJasmin(): { python: string; bin: string; site: string } {
  const python = path.join(JASMIN_HOME, "bin", "python");
  const site = () => {
    const lib = path.join(JASMIN_HOME, "lib");
    return path.join(
      lib,
      readdirSync(lib).find((d) => d.startsWith("python"))!,
      "site-packages",
    );
  };
  if (existsSync(path.join(JASMIN_HOME, ".ready"))) return { python, bin: path.join(JASMIN_HOME, "bin"), site: site() };
  timed("jasmin", () => {
    const python3 = ensureBinary("python3", "python3");
    // Built beside the final folder and renamed into place: two runs never see half an install.
    const building = `${JASMIN_HOME}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true });
    if (spawnSync(python3, ["-m", "venv", building], { stdio: "ignore" }).status !== 0) {
      // Debian keeps venv's pip bootstrap in a package of its own.
      if (process.getuid?.() !== 0)
        throw new Error('python3 cannot make a virtualenv: install the Debian package "python3-venv"');
      aptInstall("/usr/share/doc/python3-venv", "python3-venv");
      run(python3, ["-m", "venv", building], "python3 -m venv");
    }
    log(`installing jasmin==${JASMIN_VERSION} from PyPI`);
    run(
      path.join(building, "bin", "pip"),
      ["install", "-q", "--disable-pip-version-check", `jasmin==${JASMIN_VERSION}`],
      "pip install jasmin",
    );
    const lib = path.join(building, "lib");
    const listeners = path.join(
      lib,
      readdirSync(lib).find((d) => d.startsWith("python"))!,
      "site-packages",
      "jasmin",
      "managers",
      "listeners.py",
    );
    const source = readFileSync(listeners, "utf8");
    const fixed = source.replaceAll("_pdu.response", "r.response");
    if (fixed === source) throw new Error("Jasmin's listeners.py changed: check whether its receipt defect is fixed");
    writeFileSync(listeners, fixed);
    writeFileSync(
      path.join(building, ".ready"),
      `jasmin ${JASMIN_VERSION}, managers/listeners.py: _pdu.response -> r.response\n`,
    );
    try {
      renameSync(building, JASMIN_HOME);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another run got there first
    }
  });
  return { python, bin: path.join(JASMIN_HOME, "bin"), site: site() };
}

/**
 * A Debian package, installed when `file` is missing. The two gateway suites may install at the same
 * moment: apt-get waits for the other's lock instead of failing on it.
 */
function aptInstall(file: string, debianPackage: string): void {
  if (existsSync(file)) return;
  if (process.getuid?.() !== 0 || !which("apt-get"))
    throw new Error(`${file} is missing: install the Debian package "${debianPackage}"`);
  timed(debianPackage, () => {
    const wait = ["-o", "DPkg::Lock::Timeout=600"];
    spawnSync("apt-get", [...wait, "update", "-qq"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    run(
      "apt-get",
      [...wait, "install", "-y", "-qq", "--no-install-recommends", debianPackage],
      `apt-get install ${debianPackage}`,
    );
  });
  if (!existsSync(file)) throw new Error(`apt-get could not install ${debianPackage}`);
}

/** Debian's RabbitMQ (it does not start on install; the suites run its server by hand). */
function ensureRabbitmq(): string {
  aptInstall("/usr/lib/rabbitmq/bin/rabbitmq-server", "rabbitmq-server");
  return "/usr/lib/rabbitmq/bin/rabbitmq-server";
}

/** Debian's Kannel 1.4.5: bearerbox and smsbox. */
function ensureKannel(): { bearerbox: string; smsbox: string } {
  aptInstall("/usr/sbin/bearerbox", "kannel");
  return { bearerbox: "/usr/sbin/bearerbox", smsbox: "/usr/sbin/smsbox" };
}

/** A child in a process group of its own, so stopping it stops what it started (Erlang's helpers). */
function startGroup(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const out = openSync(logFile, "a");
  return spawn(command, args, { env, detached: true, stdio: ["ignore", out, out] });
}

function stopGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return resolve();
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      kill("SIGKILL"); // whatever of the group outlived its leader
      resolve();
    });
    kill("SIGTERM");
  });
}

/** A gateway's logs, kept under test-artifacts/sms-gateways/ for a person to read after the run. */
function keepLogs(dir: string, name: string): void {
  const target = path.resolve("test-artifacts/sms-gateways", name);
  rmSync(target, { recursive: true, force: true });
  if (existsSync(dir)) cpSync(dir, target, { recursive: true });
}

/** Every file of a folder, as one text (the gateway's logs, searched by the suites). */
function readLogs(dir: string): string {
  return readdirSync(dir)
    .map((name) => readFileSync(path.join(dir, name), "latin1"))
    .join("\n");
}

/** Jasmin's console (telnet, lines ending in \r\n): its only configuration interface. */
class Jcli {
  private buffer = "";
  private constructor(private readonly socket: Socket) {
    socket.on("data", (data: Buffer) => {
      const kept: number[] = [];
      for (let i = 0; i < data.length; i++) {
        // Telnet option negotiation: refuse whatever it asks us to do, accept what it offers.
        if (data[i] === 255 && i + 2 < data.length) {
          const [command, option] = [data[i + 1]!, data[i + 2]!];
          if (command === 253) socket.write(Buffer.from([255, 252, option]));
          else if (command === 251) socket.write(Buffer.from([255, 253, option]));
          i += 2;
          continue;
        }
        kept.push(data[i]!);
      }
      this.buffer += Buffer.from(kept).toString("latin1");
    });
  }

  static async open(port: number, username = "jcliadmin", password = "jclipwd"): Promise<Jcli> {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    const jcli = new Jcli(socket);
    await jcli.until(/Authentication required/u);
    socket.write(`${username}\r\n`);
    await jcli.until(/Password: $/u);
    socket.write(`${password}\r\n`);
    const welcome = await jcli.until(/jcli : $/u);
    if (!/Welcome to Jasmin/u.test(welcome)) throw new Error(`jcli login failed: ${welcome}`);
    return jcli;
  }

  private async until(prompt: RegExp, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!prompt.test(this.buffer)) {
      if (Date.now() > deadline) throw new Error(`jcli: no ${prompt} within ${timeoutMs} ms, got ${JSON.stringify(this.buffer)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const out = this.buffer;
    this.buffer = "";
    return out;
  }

  /** Types the lines one by one; the console's answers, joined. Throws on an answer that reports an error. */
  async run(...lines: string[]): Promise<string> {
    let output = "";
    for (const line of lines) {
      this.socket.write(`${line}\r\n`);
      const answer = await this.until(/(jcli : |> )$/u);
      output += answer;
      if (/Error|Unknown command|Incorrect|failed|Invalid|not found|Nothing|Unknown/iu.test(answer.replace(line, "")))
        throw new Error(`jcli "${line}": ${answer}`);
    }
    return output;
  }

  close(): void {
    this.socket.end("quit\r\n");
  }
}

export interface RunningJasmin {
  smppPort: number;
  httpPort: number;
  jcli: Jcli;
  logDir: string;
  /** What Jasmin printed to stdout and its log files. */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * RabbitMQ (its own node name, data folders and loopback ports, its own epmd), Jasmin's own Redis,
 * then jasmind with its receipt and MO throwers in the one process, every listener on 127.0.0.1.
 */
export async function startJasmin(): Promise<RunningJasmin> {
  const { python, bin, site } = ensureJasmin();
  const rabbitmqServer = ensureRabbitmq();
  const dir = mkdtempSync(path.join(tmpdir(), "storefront-jasmin-"));
  const logDir = path.join(dir, "log");
  const etc = path.join(dir, "etc");
  for (const d of [logDir, path.join(etc, "resource"), path.join(dir, "rabbitmq")]) mkdirSync(d, { recursive: true });
  copyFileSync(
    path.join(site, "txamqp", "specs", "standard", "amqp0-9-1.stripped.xml"),
    path.join(etc, "resource", "amqp0-9-1.xml"),
  );
  const ports: number[] = [];
  for (let i = 0; i < 9; i++) ports.push(await freePort());
  const [amqp, dist, epmdPort, smpp, smppPb, router, management, http, jcliPort] = ports as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const rabbitDir = path.join(dir, "rabbitmq");
  writeFileSync(path.join(rabbitDir, "enabled_plugins"), "[].\n");
  writeFileSync(path.join(rabbitDir, "rabbitmq.conf"), "");
  const rabbitEnv = {
    ...process.env,
    HOME: rabbitDir,
    RABBITMQ_NODENAME: `storefront-${process.pid}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: "127.0.0.1",
    RABBITMQ_NODE_PORT: String(amqp),
    RABBITMQ_DIST_PORT: String(dist),
    ERL_EPMD_PORT: String(epmdPort),
    ERL_EPMD_ADDRESS: "127.0.0.1",
    RABBITMQ_MNESIA_BASE: path.join(rabbitDir, "mnesia"),
    RABBITMQ_LOG_BASE: path.join(rabbitDir, "log"),
    RABBITMQ_LOGS: "-",
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(rabbitDir, "enabled_plugins"),
    RABBITMQ_CONFIG_FILE: path.join(rabbitDir, "rabbitmq"),
    RABBITMQ_PID_FILE: path.join(rabbitDir, "pid"),
  };
  const epmd = startGroup("epmd", ["-port", String(epmdPort), "-address", "127.0.0.1"], rabbitEnv, path.join(dir, "epmd.log"));
  const rabbit = startGroup(rabbitmqServer, [], rabbitEnv, path.join(dir, "rabbitmq.log"));
  let redis: RunningService | undefined;
  let jasmind: ChildProcess | undefined;
  const stop = async () => {
    await Promise.all([jasmind ? stopGroup(jasmind) : undefined, redis?.stop()]);
    await stopGroup(rabbit, 10_000);
    await stopGroup(epmd);
    keepLogs(logDir, "jasmin-logs");
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    [redis] = await Promise.all([startRedis(), waitForPort(amqp, 90_000, rabbit)]);
    const redisPort = new URL(redis.url).port;
    const listen = (section: string, port: number) => `[${section}]\nbind = 127.0.0.1\nport = ${port}\n`;
    writeFileSync(
      path.join(etc, "jasmin.cfg"),
      [
        listen("smpp-server", smpp),
        listen("smpp-server-pb", smppPb),
        `[smpp-server-pb-client]\nhost = 127.0.0.1\nport = ${smppPb}\n`,
        listen("router", router),
        listen("client-management", management),
        listen("http-api", http),
        listen("jcli", jcliPort),
        `[amqp-broker]\nhost = 127.0.0.1\nport = ${amqp}\n`,
        `[redis-client]\nhost = 127.0.0.1\nport = ${redisPort}\n`,
      ].join("\n"),
    );
    const env = { ...process.env, ROOT_PATH: dir, CONFIG_PATH: etc, LOG_PATH: logDir };
    jasmind = startGroup(
      python,
      [path.join(bin, "jasmind.py"), "--enable-dlr-thrower", "--enable-dlr-lookup", "--enable-deliver-thrower"],
      env,
      path.join(logDir, "jasmind.out"),
    );
    await Promise.all([
      waitForPort(jcliPort, 60_000, jasmind),
      waitForPort(smpp, 60_000, jasmind),
      waitForPort(http, 60_000, jasmind),
    ]);
    const jcli = await Jcli.open(jcliPort);
    return {
      smppPort: smpp,
      httpPort: http,
      jcli,
      logDir,
      logs: () => readLogs(logDir),
      stop: async () => {
        jcli.close();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface KannelOptions {
  /** The SMSC (an SMPP simulator) and Kannel's account on it. */
  smsc: { port: number; systemId: string; password: string };
  /** Where Kannel's sms-service sends subscribers' messages (get-url, Kannel's escapes allowed). */
  getUrl: string;
  /** More sms-services: messages whose first word is `keyword` go to their URL instead. */
  services?: { keyword: string; getUrl: string }[];
  sendsms: { username: string; password: string };
}

export interface RunningKannel {
  sendsmsUrl: string;
  logDir: string;
  logs(): string;
  /** Each file of its folder by name: bearerbox.log and smsbox.log (log-level 1), *.out (the console). */
  logFiles(): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * bearerbox bound to the SMSC as a transceiver, smsbox with one sendsms user (up to 10 parts per
 * message, concatenated) and one sms-service passing every message to `getUrl` without replying
 * itself (max-messages 0: the product replies through sendsms). Log level INFO, as operators run it.
 */
export async function startKannel(options: KannelOptions): Promise<RunningKannel> {
  const { bearerbox, smsbox } = ensureKannel();
  const dir = mkdtempSync(path.join(tmpdir(), "storefront-kannel-"));
  const [admin, boxPort, sendsms] = await Promise.all([freePort(), freePort(), freePort()]);
  const conf = path.join(dir, "kannel.conf");
  writeFileSync(
    conf,
    `group = core
admin-port = ${admin}
admin-interface = 127.0.0.1
admin-password = ${Math.random().toString(36).slice(2)}
smsbox-port = ${boxPort}
smsbox-interface = 127.0.0.1
box-allow-ip = 127.0.0.1
log-file = "${dir}/bearerbox.log"
log-level = 1
dlr-storage = internal

group = smsc
smsc = smpp
smsc-id = simulator
host = 127.0.0.1
port = ${options.smsc.port}
transceiver-mode = true
smsc-username = ${options.smsc.systemId}
smsc-password = ${options.smsc.password}
system-type = ""
reconnect-delay = 1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${boxPort}
sendsms-port = ${sendsms}
sendsms-interface = 127.0.0.1
log-file = "${dir}/smsbox.log"
log-level = 1
mo-recode = true
http-request-retry = 3
http-queue-delay = 1

group = sendsms-user
username = ${options.sendsms.username}
password = ${options.sendsms.password}
max-messages = 10
concatenation = true

group = sms-service
keyword = default
catch-all = true
max-messages = 0
get-url = "${options.getUrl}"
${(options.services ?? [])
  .map(
    (service) => `
group = sms-service
keyword = ${service.keyword}
catch-all = true
max-messages = 0
get-url = "${service.getUrl}"
`,
  )
  .join("")}`,
  );
  const bearer = startGroup(bearerbox, [conf], process.env, path.join(dir, "bearerbox.out"));
  let box: ChildProcess | undefined;
  const stop = async () => {
    await Promise.all([box ? stopGroup(box) : undefined]);
    await stopGroup(bearer);
  };
  try {
    await waitForPort(boxPort, 30_000, bearer);
    box = startGroup(smsbox, [conf], process.env, path.join(dir, "smsbox.out"));
    await waitForPort(sendsms, 30_000, box);
    return {
      sendsmsUrl: `http://127.0.0.1:${sendsms}/cgi-bin/sendsms`,
      logDir: dir,
      logs: () => readLogs(dir),
      logFiles: () => Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(path.join(dir, name), "latin1")])),
      stop: async () => {
        await stop();
        keepLogs(dir, "kannel-logs");
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface ProductStack {
  url: string;
  /** The suite's own database, read directly by its checks. */
  db: Connection;
  stack: Stack;
  stop(): Promise<void>;
}

/**
 * The product as the gateway suites need it: an API process and an sms-reply worker with a database
 * of their own (on the run's MongoDB-compatible server) and a Redis of their own. The SMS integration
 * settings are one document per database, so these suites configure them without disturbing the
 * other SMS suites. PUBLIC_BASE_URL is the API's address (Kannel's and Jasmin's receipt URLs).
 */
async function startProductStack(name: string, env: Record<string, string>, port?: number): Promise<ProductStack> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const mongoUri = databaseNamed(`storefront_${name}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), `storefront-${name}-`));
  const stack = await startStack({
    mongoUri,
    dataDir,
    persist: false,
    port,
    workers: ["sms-reply"],
    logDir: path.resolve("test-artifacts/logs", name),
    env: {
      NODE_ENV: "test",
      SESSION_SECRET: `${name}-session-secret-0123456789`,
      ADMIN_USERNAME: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      LOG_LEVEL: "warn",
      PUBLIC_BASE_URL: url,
      ...TEST_LIMITS,
      ...env,
    },
  });
  const db = await mongoose.createConnection(mongoUri).asPromise();
  return {
    url,
    db,
    stack,
    stop: async () => {
      await db.dropDatabase().catch(() => undefined);
      await db.close();
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What each gateway suite runs around its gateway: the carrier's SMSC (an SMPP simulator), the AI
 * provider's peer, and the tap every call of the gateway to the product goes through (the product
 * then listens on the tap's target port). Started, and stopped, the same way in both suites.
 */
export class GatewaySuite {
  readonly smsc: SmppServerPeer;
  readonly ai: OpenAiPeer;
  tap!: CaptureProxy;
  /** The port the product listens on, behind the tap. */
  port = 0;
  readonly startedAt = Date.now();
  /** Seconds to each step of the start, printed at the end. */
  readonly timings: Record<string, number> = {};

  constructor(readonly name: string) {
    this.smsc = new SmppServerPeer(name, "smscpw");
    this.ai = new OpenAiPeer(`${name}-ai-key`);
  }

  async startPeers(): Promise<void> {
    this.port = await freePort();
    this.tap = new CaptureProxy(`http://127.0.0.1:${this.port}`);
    await Promise.all([this.smsc.start(), this.ai.start(), this.tap.start()]);
  }

  /** The product behind the tap, its AI replies from the suite's AI peer, its receipt URLs through the tap. */
  startProduct(): Promise<ProductStack> {
    const env = {
      AI_PROVIDER: "openai",
      OPENAI_BASE_URL: `${this.ai.url}/v1`,
      OPENAI_API_KEY: `${this.name}-ai-key`,
      PUBLIC_BASE_URL: this.tap.url,
    };
    return startProductStack(this.name, env, this.port);
  }

  /**
   * The SMS integration settings both suites save: the webhook secret as a query token (all either
   * gateway's HTTP client can send), replies on, a limit no test reaches, the default texts.
   */
  integration(secret: string, gateway: Record<string, unknown>): Record<string, unknown> {
    return {
      enabled: true,
      ...gateway,
      webhook_secret: secret,
      webhook_query_token: true,
      rate_limit_per_minute: 100,
      auto_reply_enabled: true,
      welcome_message: SMS_INTEGRATION_DEFAULTS.welcome_message,
      insufficient_funds_message: SMS_INTEGRATION_DEFAULTS.insufficient_funds_message,
    };
  }

  /**
   * Keeps what the gateway really sent (test-artifacts/sms-gateways/<name>-captured.txt, and any
   * `more` files) for a person to read, prints the start's timings, and stops the peers and `parts`.
   */
  async finish(
    show: (call: Captured) => string,
    parts: ({ stop(): Promise<unknown> } | undefined)[],
    more: Record<string, string> = {},
  ): Promise<void> {
    const dir = path.resolve("test-artifacts/sms-gateways");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${this.name}-captured.txt`), (this.tap?.captured ?? []).map(show).join("\n"));
    for (const [file, text] of Object.entries(more)) writeFileSync(path.join(dir, file), text);
    const total = (Date.now() - this.startedAt) / 1000;
    process.stderr.write(`[sms-${this.name}] seconds: ${JSON.stringify({ ...this.timings, total })}\n`);
    await Promise.all([this.tap?.stop(), ...parts.map((part) => part?.stop())]);
    await Promise.all([this.smsc.stop(), this.ai.stop()]);
  }
}

/** A Saudi mobile number no other test of the run uses: E.164, and the digits an SMSC hands over. */
function newMobile(): { e164: string; digits: string } {
  const digits = `9665${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  return { e164: `+${digits}`, digits };
}

/** A subscriber of the suite's product with coins to pay for replies. */
export async function signUpSubscriber(product: ProductStack, admin: Client, coins = 500) {
  const phone = newMobile();
  const client = new Client(product.url);
  const signup = await client.post("/signup.php", { phone: phone.e164, password: "secret-pass" });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.body)}`);
  const login = await client.post("/login-session-fix.php", { phone: phone.e164, password: "secret-pass" });
  const id: string = login.body.user.id;
  // Only a proven number is tied to its account over SMS; the proof flow itself is
  // tests/integration/phone-proof.test.ts's, so here the proof is written as it would land.
  await product.db
    .collection("users")
    .updateOne({ _id: new mongoose.Types.ObjectId(id) }, { $set: { phoneVerifiedAt: new Date() } });
  const res = await admin.post("/admin/update-user-tier.php", { userId: id, newCoins: coins, newTier: 1 });
  if (res.status !== 200) throw new Error(`set coins failed: ${res.status}`);
  return { ...phone, id };
}

/** The outbound record answering a subscriber's text, once it is sent (or failed), with the inbound one. */
export function replyTo(product: ProductStack, phone: string, text: string) {
  const messages = product.db.collection("smsmessages");
  return until(
    async () => {
      const inbound = await messages.findOne({ direction: "inbound", phone, message: text });
      if (!inbound) return undefined;
      // The reply's key is the inbound message's (`in:<key>`, `out:<key>`).
      const out = await messages.findOne({ key: `out:${String(inbound.key).slice("in:".length)}` });
      return out && (out.state === "sent" || out.state === "failed") ? { inbound, out } : undefined;
    },
    30_000,
    `reply to "${text.slice(0, 20)}"`,
    50,
  );
}

/** What the SMSC received for a number, long messages joined from their parts, once there are `count`. */
export function receivedAt(smsc: SmppServerPeer, digits: string, count: number) {
  return until(
    () => {
      const texts = smsc.messagesTo(digits);
      return texts.length >= count ? texts : undefined;
    },
    30_000,
    `${count} message(s) to ${digits} at the SMSC`,
    50,
  );
}

/**
 * A long reply through a real gateway, the same case for each: a message of one SMS whose reply (it
 * quotes it) needs two, sent to `to`, goes out in as many parts as its segments, joining to the whole.
 */
export async function expectLongReplyInParts(product: ProductStack, admin: Client, smsc: SmppServerPeer, to: string) {
  const user = await signUpSubscriber(product, admin);
  const text = `Tell me a long story about the sea and the ships ${randomUUID()} `.repeat(2).trim();
  await smsc.deliverMo({ from: user.digits, to, text });
  const { out } = await replyTo(product, user.e164, text);
  expect(out).toMatchObject({ state: "sent", encoding: "GSM-7" });
  const [joined] = await receivedAt(smsc, user.digits, 1);
  expect(joined).toBe(out.message);
  const parts = smsc.submits.filter((s) => s.to === user.digits);
  expect(parts.length).toBe(out.segments);
  expect(parts.length).toBeGreaterThan(1);
}

/** The delivery receipt stored on an outbound record, once there is one. */
export function receiptOn(product: ProductStack, id: unknown) {
  return until(
    async () => {
      const row = await product.db.collection("smsmessages").findOne({ _id: id as never });
      return row?.delivery_status ? row : undefined;
    },
    30_000,
    "receipt recorded",
    50,
  );
}

/**
 * Test Gateway against a real gateway: the stored settings pass, the same gateway with a wrong
 * password is reported as refusing the credentials, and the SMSC receives nothing either way.
 */
export async function expectGatewayTest(admin: Client, smsc: SmppServerPeer, wrong: Record<string, string>): Promise<void> {
  const before = smsc.submits.length;
  const right = await admin.request("PUT", "/sms/integration/config.php", { action: "test_gateway" });
  expect(right.body.test_result).toEqual({ success: true, error: null });
  const refused = await admin.request("PUT", "/sms/integration/config.php", {
    action: "test_gateway",
    ...wrong,
    gateway_password: "wrong-pw",
  });
  expect(refused.body.test_result).toEqual({ success: false, error: "The gateway refused the credentials (HTTP 403)" });
  expect(smsc.submits.length).toBe(before);
}
