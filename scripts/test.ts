/**
 * `npm test`: the static checks (lint, formatting, type checks) run beside the test suites instead
 * of before them. The suites spend most of their time waiting on the running stack, so on a small
 * machine the checks cost almost no extra wall time this way. The checks' output is held back and
 * printed after the suites' (so neither interleaves with the other); the run fails if any part fails.
 *
 * Extra arguments go to vitest (`npm test -- tests/integration/wallet.test.ts`).
 */
import { spawn } from "node:child_process";

interface Part {
  name: string;
  command: string;
  args: string[];
  /** Held back and printed when the part ends, rather than streamed. */
  quiet: boolean;
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const parts: Part[] = [
  { name: "lint", command: npm, args: ["run", "--silent", "lint"], quiet: true },
  { name: "typecheck", command: npm, args: ["run", "--silent", "typecheck"], quiet: true },
  { name: "vitest", command: npx, args: ["vitest", "run", ...process.argv.slice(2)], quiet: false },
];

function run(part: Part): Promise<{ part: Part; code: number; output: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(part.command, part.args, { stdio: part.quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code, signal) =>
      resolve({ part, code: code ?? (signal ? 1 : 0), output, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

const results = await Promise.all(parts.map(run));
for (const { part, code, output, seconds } of results) {
  if (part.quiet && output.trim()) console.log(`\n[${part.name}]\n${output.trimEnd()}`);
  console.log(`[${part.name}] ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
}
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
