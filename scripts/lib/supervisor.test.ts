import { spawn, type ChildProcess } from "node:child_process";
import { describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_POLICY, supervise, type RestartPolicy } from "./supervisor";
import { stopProcess } from "./infra";

/** A real child process: runs `code` under node. */
function node(code: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
  return new Promise((resolve, reject) => {
    child.once("spawn", () => resolve(child));
    child.once("error", reject);
  });
}

const fast: RestartPolicy = { minDelayMs: 20, maxDelayMs: 80, healthyAfterMs: 400, crashLoopAfter: 3 };
const stopChild = (child: ChildProcess) => stopProcess(child, 1000);

describe("backoffDelay", () => {
  it("doubles from 1 s to at most 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => backoffDelay(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(DEFAULT_POLICY.healthyAfterMs).toBe(60_000);
  });
});

describe("supervise", () => {
  it("restarts a killed process, logging its name, signal and run time", async () => {
    const lines: string[] = [];
    const p = await supervise(
      {
        name: "sleeper",
        // Ready 100 ms after it was spawned, as a real process is after its start-up.
        start: async () => {
          const child = await node("setInterval(() => {}, 1000)");
          await new Promise((r) => setTimeout(r, 100));
          return child;
        },
      },
      { policy: fast, stopChild, log: (l) => lines.push(l) },
    );
    try {
      expect(p.startupMs).toBeGreaterThanOrEqual(100);
      const first = p.child.pid;
      p.child.kill("SIGKILL");
      await p.restarted(1, 5000);
      expect(p.child.pid).not.toBe(first);
      expect(p.child.exitCode).toBeNull();
      expect(p.exits).toHaveLength(1);
      expect(p.exits[0]!.signal).toBe("SIGKILL");
      expect(lines[0]).toMatch(/^sleeper exited unexpectedly \(signal SIGKILL\) after \d+\.\d s; restarting in 0.02 s$/u);
      expect(lines[1]).toMatch(/^sleeper is back \(pid \d+, restart 1\)$/u);
    } finally {
      await p.stop();
    }
  });

  it("backs off between crashes in a row and reports a crash loop", async () => {
    const lines: string[] = [];
    const p = await supervise(
      { name: "crasher", start: () => node("process.exit(3)") },
      // Every run counts as a crash however long a loaded machine takes to start node.
      { policy: { ...fast, healthyAfterMs: 60_000 }, stopChild, log: (l) => lines.push(l) },
    );
    try {
      await p.restarted(4, 5000);
      expect(p.exits.slice(0, 4).map((e) => e.code)).toEqual([3, 3, 3, 3]);
      const delays = lines.filter((l) => l.includes("exited")).map((l) => Number(/in ([\d.]+) s$/u.exec(l)![1]));
      expect(delays.slice(0, 4)).toEqual([0.02, 0.04, 0.08, 0.08]);
      expect(lines.find((l) => l.startsWith("CRASH LOOP: crasher exited unexpectedly (exit code 3)"))).toContain(
        "3 crashes in a row, each within 60 s",
      );
    } finally {
      await p.stop();
    }
  });

  it("resets the backoff after a healthy run", async () => {
    const lines: string[] = [];
    // Runs 0.5 s (longer than healthyAfterMs 0.4 s) each time, then crashes.
    const p = await supervise(
      { name: "steady", start: () => node("setTimeout(() => process.exit(1), 500)") },
      { policy: fast, stopChild, log: (l) => lines.push(l) },
    );
    try {
      await p.restarted(2, 5000);
      const delays = lines.filter((l) => l.includes("exited")).map((l) => /in ([\d.]+) s$/u.exec(l)![1]);
      expect(delays.slice(0, 2)).toEqual(["0.02", "0.02"]);
    } finally {
      await p.stop();
    }
  });

  it("does not restart after stop() or a deliberate restart()", async () => {
    const lines: string[] = [];
    const p = await supervise(
      { name: "stoppable", start: () => node("setInterval(() => {}, 1000)") },
      { policy: fast, stopChild, log: (l) => lines.push(l) },
    );
    const first = p.child;
    await p.restart();
    expect(first.signalCode ?? first.exitCode).not.toBeNull();
    expect(p.child).not.toBe(first);
    await p.stop();
    const last = p.child;
    expect(last.signalCode ?? last.exitCode).not.toBeNull();
    // The event that would start a restart has been handled; no exit was counted as a crash.
    await new Promise((resolve) => setImmediate(resolve));
    expect(p.exits).toEqual([]);
    expect(lines).toEqual([]);
  });
});
