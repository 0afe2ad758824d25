/**
 * How `npm start` scales with API_PROCESSES on this machine (docs/performance.md, "API processes
 * under npm start"): the stack `npm start` runs (every queue's worker, n API processes behind the
 * one port), driven through that port by 16 subscribers on 16 loopback addresses or on one.
 *
 *   npx tsx scripts/bench/spread.ts serve <n> <file>   starts it, with 16 subscribers, and writes
 *                                                      where it is to <file>; runs until SIGINT/SIGTERM
 *   npx tsx scripts/bench/spread.ts load <file> <chat|wallet> <many|one> <calls>
 *                                                      makes <calls> calls at concurrency 16, prints req/s
 *
 * Several stacks (1, 2, 4 processes) run side by side and `load` runs are timed in turns against
 * each (A, B, A, B ...), so the ratios hold while the shared machine's speed drifts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { QUEUE_NAMES } from "@storefront/shared";
import { freePort } from "../lib/infra";
import { startStack } from "../lib/stack";
import { BenchClient, requestsPerSecond, runLoad } from "./load";
import { makeUsers } from "./users";

const CONCURRENCY = 16;
const WARMUP = 400;
const CHAT_BODY = { message: "hello there", avatarType: "general", language: "en" };

interface Served {
  url: string;
  cookies: string[];
}

/** The loopback address of a lane: its own (many) or 127.0.0.1 for all (one). */
const addressOf = (lane: number, spread: string) => (spread === "many" ? `127.0.0.${lane + 2}` : "127.0.0.1");

async function drive(served: Served, kind: string, spread: string, calls: number): Promise<number> {
  const clients = served.cookies.map((_, lane) => new BenchClient(1, addressOf(lane, spread)));
  const call = async (_: number, lane: number) => {
    const cookie = served.cookies[lane]!;
    const res =
      kind === "chat"
        ? await clients[lane]!.post(`${served.url}/api/textai/chat.php`, CHAT_BODY, { cookie })
        : await clients[lane]!.get(`${served.url}/api/wallet/get.php`, { cookie });
    return res.status === 200 ? undefined : `${kind} ${res.status}: ${res.body.slice(0, 200)}`;
  };
  const result = await runLoad(calls, CONCURRENCY, call);
  for (const client of clients) client.close();
  if (result.failures > 0) throw new Error(`${result.failures} of ${calls} failed; first: ${result.firstFailure}`);
  return requestsPerSecond(result);
}

async function serve(processes: number, file: string): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "storefront-spread-"));
  const admin = { username: "spread-admin", password: randomBytes(16).toString("hex") };
  const stack = await startStack({
    dataDir,
    persist: false,
    port: await freePort(),
    apiProcesses: processes,
    workers: [...QUEUE_NAMES],
    env: {
      NODE_ENV: "production",
      SESSION_SECRET: randomBytes(32).toString("hex"),
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: "warn",
      LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
      LOGIN_RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
      SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR: "100000",
    },
  });
  const { users } = await makeUsers(stack.url, CONCURRENCY, admin);
  const served: Served = { url: stack.url, cookies: users.map((u) => u.cookie) };
  for (const kind of ["chat", "wallet"]) for (const spread of ["many", "one"]) await drive(served, kind, spread, WARMUP);
  writeFileSync(file, JSON.stringify(served));
  console.log(`[spread] ${processes} API process(es) on ${stack.url}, warm; ${file}`);
  const stop = async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(file, { force: true });
    process.exit(0);
  };
  process.once("SIGINT", () => void stop());
  process.once("SIGTERM", () => void stop());
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "serve") {
  await serve(Number(args[0]), path.resolve(args[1]!));
} else if (mode === "load") {
  const [file, kind, spread, calls] = args as [string, string, string, string];
  const rps = await drive(JSON.parse(readFileSync(file, "utf8")) as Served, kind, spread, Number(calls));
  console.log(`${kind} ${spread} ${rps.toFixed(1)} req/s`);
  process.exit(0);
} else {
  console.error("usage: spread.ts serve <n> <file> | load <file> <chat|wallet> <many|one> <calls>");
  process.exit(2);
}
