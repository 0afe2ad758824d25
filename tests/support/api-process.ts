/**
 * One more API process on the test run's MongoDB and Redis, with its own environment: for the
 * settings the shared stack cannot have both ways (SMS_GATEWAY_ALLOW_PRIVATE off, debug logs).
 */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import mongoose from "mongoose";
import { SERVER_PROGRAMS } from "../../scripts/lib/build-server";
import { TEST_LIMITS } from "../setup/global";
import { inject } from "vitest";
import { until } from "./realtime";

export interface ApiProcess {
  url: string;
  /** Everything it printed so far (its JSON log lines). */
  output(): string;
  stop(): Promise<void>;
}

export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  // The program the run's stack built (stack.ts) when it started.
  const child: ChildProcess = fork(path.resolve(SERVER_PROGRAMS.api.out), [], {
    cwd: path.resolve("."),
    execArgv: ["--enable-source-maps"],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env: {
      ...(process.env as Record<string, string>),
      NODE_ENV: "test",
      MONGODB_URI: inject("mongoUri"),
      REDIS_URL: inject("redisUrl"),
      DATA_DIR: inject("dataDir"),
      SESSION_SECRET: "second-api-session-secret-0123456789",
      PORT: "0",
      ...TEST_LIMITS,
      ...env,
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`api process did not listen:\n${output}`)), 90_000);
    child.on("message", (message: { type?: string; port?: number }) => {
      if (message?.type === "listening" && message.port) {
        clearTimeout(timer);
        resolve(message.port);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`api process exited (${code}):\n${output}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  // Listening comes before its Redis and database connections are ready; until then calls answer 503.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${url}/api/ready`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`api process not ready within 30 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

/**
 * Reads the one-time phone codes an API process without an SMS gateway writes to its log: each call
 * waits for the next code written for `phone` (the log reaches the pipe a moment after the answer).
 */
/** Database `name` on the run's MongoDB-compatible server: a suite's own. */
export const databaseNamed = (name: string): string => inject("mongoUri").replace(/\/[^/?]*(\?|$)/u, `/${name}$1`);

/**
 * An API process on a database of its own (`name`, emptied first) on the run's server, for a suite
 * whose settings must not reach the other suites. mongoose's default connection opens on that
 * database, so the suite's models read what the process wrote. stop() ends the process, empties
 * the database and closes the connection.
 */
export async function startApiOnOwnDatabase(name: string, env: Record<string, string> = {}): Promise<ApiProcess> {
  const database = databaseNamed(name);
  await mongoose.connect(database);
  await mongoose.connection.dropDatabase();
  const api = await startApiProcess({ MONGODB_URI: database, ...env }).catch(async (error: unknown) => {
    await mongoose.disconnect();
    throw error;
  });
  return {
    ...api,
    stop: async () => {
      await api.stop();
      await mongoose.connection.dropDatabase();
      await mongoose.disconnect();
    },
  };
}

export function phoneCodesIn(api: () => ApiProcess): (phone: string) => Promise<string> {
  const codesRead = new Map<string, number>();
  return async (phone) => {
    const codes = () =>
      api()
        .output()
        .split("\n")
        .filter((line) => line.includes('"phone code') && line.includes(`"phone":"${phone}"`))
        .map((line) => (JSON.parse(line) as { code: string }).code);
    const read = codesRead.get(phone) ?? 0;
    await until(() => codes().length > read || undefined, 10_000, `a new code for ${phone} in the log`, 20);
    const all = codes();
    codesRead.set(phone, all.length);
    return all.at(-1)!;
  };
}
