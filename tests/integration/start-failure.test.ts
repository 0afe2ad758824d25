/**
 * `npm start` that cannot start leaves the machine as it was: with its port taken it starts nothing,
 * and when a part fails later (here the API process, whose configuration is refused once Redis and
 * the database are up) it stops every process it had started before it exits.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/infra";

const root = path.resolve(import.meta.dirname, "../..");

/** The processes whose command line or environment names `dataDir`: what a start left behind. */
function processesUsing(dataDir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/u.test(name))) {
    if (Number(pid) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
      if (cmdline.includes(dataDir) || environ.includes(`DATA_DIR=${dataDir}`))
        found.push(`${pid}: ${cmdline.replaceAll("\0", " ")}`);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Runs `npm start` (scripts/start.ts) to its exit: its code and what it printed. */
function runStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: root,
    env: { ...(process.env as Record<string, string>), SKIP_WEB_BUILD: "1", API_PROCESSES: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

describe("npm start that fails leaves nothing behind", () => {
  let dataDir: string;
  let taken: Server;
  let takenPort: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "storefront-start-"));
    takenPort = await freePort();
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(takenPort, "127.0.0.1", resolve));
  });

  afterAll(() => {
    taken?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("on a taken port: says so, exits non-zero, and no Redis, database or API process is left", async () => {
    const { code, output } = await runStart({ PORT: String(takenPort), DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(output).toContain(`port ${takenPort} on 127.0.0.1 is already in use`);
    expect(processesUsing(dataDir)).toEqual([]);
  }, 60_000);

  it("when the API fails to start after Redis and the database are up: stops them before exiting", async () => {
    const { code, output } = await runStart({ PORT: String(await freePort()), DATA_DIR: dataDir, LOG_LEVEL: "loud" });
    expect(code).toBe(1);
    // The API process refused its configuration, after the servers had started.
    expect(output).toMatch(/LOG_LEVEL/u);
    expect(output).toMatch(/process exited \(1\) before "listening"/u);
    expect(processesUsing(dataDir)).toEqual([]);
  }, 120_000);
});
