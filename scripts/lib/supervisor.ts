/**
 * Keeps the stack's processes alive (issue: survive crashes). A process that exits when nobody
 * asked it to is logged (name, exit code or signal, how long it ran) and started again after an
 * exponential backoff: 1 s, 2 s, 4 s ... up to 30 s, back to 1 s once a run lasted a minute.
 * Several crashes in a row are reported as a crash loop at every further attempt, never hidden.
 * Our own small code rather than pm2 or a process manager: the stack already spawns and waits
 * for each child (docs/decisions.md).
 */
import type { ChildProcess } from "node:child_process";

export interface RestartPolicy {
  minDelayMs: number;
  maxDelayMs: number;
  /** A run at least this long counts as healthy and resets the backoff. */
  healthyAfterMs: number;
  /** Crashes in a row (each shorter than healthyAfterMs) reported as a crash loop. */
  crashLoopAfter: number;
}

export const DEFAULT_POLICY: RestartPolicy = {
  minDelayMs: 1_000,
  maxDelayMs: 30_000,
  healthyAfterMs: 60_000,
  crashLoopAfter: 5,
};

/** Delay before the n-th restart in a row (n >= 1): doubling from the minimum, capped. */
export function backoffDelay(crashesInARow: number, policy: RestartPolicy = DEFAULT_POLICY): number {
  const n = Math.max(1, crashesInARow);
  return Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** Math.min(n - 1, 30));
}

export interface ExitRecord {
  at: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  ranMs: number;
}

export interface SupervisedSpec {
  name: string;
  /** Starts the process; resolves once it is ready to serve (rejects if it never gets there). */
  start(): Promise<ChildProcess>;
}

export interface Supervised {
  readonly name: string;
  /** The current process (replaced on each restart). */
  readonly child: ChildProcess;
  /** Unexpected exits so far, oldest first. */
  readonly exits: readonly ExitRecord[];
  /** Restarts that reached "ready". */
  readonly restarts: number;
  /** How long the first start took to reach "ready" (what a restart should roughly cost again). */
  readonly startupMs: number;
  /** Resolves once the process has been restarted `count` times in all (and is ready). */
  restarted(count: number, timeoutMs: number): Promise<void>;
  /** No restart from now on (a shutdown has begun); the process itself is left alone. */
  halt(): void;
  /** Stops it for good (no restart): `stopChild` decides how (SIGTERM, grace, SIGKILL). */
  stop(): Promise<void>;
  /** Stops it and starts it again at once, without counting a crash. */
  restart(): Promise<void>;
}

export interface SupervisorOptions {
  policy?: RestartPolicy;
  log?: (line: string) => void;
  stopChild: (child: ChildProcess) => Promise<void>;
  now?: () => number;
}

const describeExit = (code: number | null, signal: NodeJS.Signals | null) =>
  signal ? `signal ${signal}` : `exit code ${code ?? "?"}`;

/** Starts `spec` and restarts it whenever it exits on its own; the first start must succeed. */
export async function supervise(spec: SupervisedSpec, options: SupervisorOptions): Promise<Supervised> {
  const policy = options.policy ?? DEFAULT_POLICY;
  const log = options.log ?? ((line: string) => process.stderr.write(`[supervisor] ${line}\n`));
  const now = options.now ?? Date.now;
  const exits: ExitRecord[] = [];
  const waiters = new Set<{ count: number; resolve(): void }>();
  let child!: ChildProcess;
  let startedAt = 0;
  let crashesInARow = 0;
  let restarts = 0;
  let startupMs = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** Processes stopped on purpose by restart(): their exit is not a crash. */
  const retiring = new WeakSet<ChildProcess>();

  const watch = (current: ChildProcess) => {
    current.once("exit", (code, signal) => {
      if (stopped || retiring.has(current) || current !== child) return;
      const ranMs = now() - startedAt;
      exits.push({ at: now(), code, signal, ranMs });
      crashesInARow = ranMs >= policy.healthyAfterMs ? 1 : crashesInARow + 1;
      const delay = backoffDelay(crashesInARow, policy);
      const what = `${spec.name} exited unexpectedly (${describeExit(code, signal)}) after ${(ranMs / 1000).toFixed(1)} s`;
      if (crashesInARow >= policy.crashLoopAfter) {
        log(
          `CRASH LOOP: ${what}; ${crashesInARow} crashes in a row, each within ${policy.healthyAfterMs / 1000} s; next try in ${delay / 1000} s`,
        );
      } else {
        log(`${what}; restarting in ${delay / 1000} s`);
      }
      timer = setTimeout(() => void launch(true), delay);
    });
  };

  async function launch(isRestart: boolean): Promise<void> {
    timer = undefined;
    if (stopped) return;
    startedAt = now();
    let started: ChildProcess;
    try {
      started = await spec.start();
    } catch (error) {
      if (!isRestart) throw error;
      // It died (or hung) while starting: count it as a crash and try again later.
      crashesInARow += 1;
      const delay = backoffDelay(crashesInARow, policy);
      log(`${spec.name} failed to start again (${(error as Error).message}); next try in ${delay / 1000} s`);
      timer = setTimeout(() => void launch(true), delay);
      return;
    }
    if (stopped) {
      await options.stopChild(started);
      return;
    }
    if (!isRestart) startupMs = now() - startedAt;
    child = started;
    watch(started);
    if (started.exitCode !== null || started.signalCode !== null) started.emit("exit", started.exitCode, started.signalCode);
    if (isRestart) {
      restarts += 1;
      log(`${spec.name} is back (pid ${started.pid}, restart ${restarts})`);
      for (const w of waiters) if (restarts >= w.count) w.resolve();
    }
  }

  await launch(false);

  const halt = () => {
    stopped = true;
    clearTimeout(timer);
  };
  return {
    name: spec.name,
    get child() {
      return child;
    },
    exits,
    get restarts() {
      return restarts;
    },
    get startupMs() {
      return startupMs;
    },
    restarted(count, timeoutMs) {
      if (restarts >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const entry = {
          count,
          resolve: () => {
            clearTimeout(limit);
            waiters.delete(entry);
            resolve();
          },
        };
        const limit = setTimeout(() => {
          waiters.delete(entry);
          reject(new Error(`${spec.name} was not restarted ${count} time(s) within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(entry);
      });
    },
    halt,
    async stop() {
      halt();
      await options.stopChild(child);
    },
    async restart() {
      retiring.add(child);
      await options.stopChild(child);
      clearTimeout(timer);
      const next = await spec.start();
      child = next;
      startedAt = now();
      watch(next);
    },
  };
}
