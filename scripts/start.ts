/**
 * `npm start`: the whole product on this machine. Starts Redis and the MongoDB-compatible server
 * when REDIS_URL / MONGODB_URI are unset (data under DATA_DIR), builds the web app when needed,
 * then API_PROCESSES API processes (one per core by default, behind the one PORT) and one worker
 * process per queue, each supervised (restarted with backoff when it exits on its own). Ctrl+C
 * stops everything.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { QUEUE_NAMES } from "@storefront/shared";
import { apiProcessCount } from "./lib/front";
import { startStack } from "./lib/stack";
import { vapidKeys } from "./lib/vapid";

const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
mkdirSync(dataDir, { recursive: true });

function sessionSecret(): string {
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET;
  const file = path.join(dataDir, "session-secret");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

function buildWeb(): void {
  if (process.env.SKIP_WEB_BUILD === "1" || !existsSync("web/index.html")) return;
  if (existsSync("web/dist/index.html") && process.env.REBUILD_WEB !== "1") return;
  console.log("[start] building the web app");
  const result = spawnSync("npm", ["run", "build", "-w", "web"], { stdio: "inherit" });
  if (result.status !== 0) throw new Error("web build failed");
}

async function main(): Promise<void> {
  const apiCount = apiProcessCount(process.env.API_PROCESSES, availableParallelism());
  buildWeb();
  const port = Number(process.env.PORT ?? 3000);
  const stack = await startStack({
    ...(process.env.MONGODB_URI ? { mongoUri: process.env.MONGODB_URI } : {}),
    ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
    dataDir,
    persist: true,
    port,
    apiProcesses: apiCount,
    workers: [...QUEUE_NAMES],
    env: { SESSION_SECRET: sessionSecret(), ...vapidKeys(dataDir), NODE_ENV: process.env.NODE_ENV ?? "production" },
    inheritOutput: true,
  });
  // Where `npm run backup` finds the running stack (its Redis and database ports change per run).
  const stackFile = path.join(dataDir, "stack.json");
  writeFileSync(stackFile, JSON.stringify({ pid: process.pid, mongoUri: stack.mongoUri, redisUrl: stack.redisUrl }), {
    mode: 0o600,
  });
  console.log(
    `[start] storefront on ${stack.url} (API under /api, ${apiCount} API process${apiCount === 1 ? "" : "es"}); Ctrl+C stops it`,
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log("[start] stopping");
    await stack.stop();
    rmSync(stackFile, { force: true });
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((error: unknown) => {
  console.error(`[start] ${(error as Error).message}`);
  process.exit(1);
});
