/**
 * Who this process is, written beside work it leaves half-done (a video it makes), so that another process can tell whether it still runs and finish that work at once
 * instead of waiting out an age long enough for any live process to have finished it.
 *
 * On Linux the identity is the kernel's boot id, the pid namespace, the pid and the process's start
 * time: another process can prove it gone only when it shares the boot and the namespace (the same
 * machine and container), and a pid used again by a later process does not pass for the first.
 * Anywhere else, or from another machine or container, nothing is proven and callers wait out the age.
 */
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

const PREFIX = "linux";

/**
 * The start time field of /proc/<pid>/stat (clock ticks since boot) and whether the process has
 * ended; "none" when there is no such process; null when it cannot be read (permissions, no file
 * descriptor left), which proves nothing.
 */
function statOf(pid: number): { start: string; ended: boolean } | "none" | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name, which is in parentheses and may itself hold spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // A zombie (Z) or dead (X) process runs no more code: only its exit status waits to be read.
    return { start: fields[19] ?? "", ended: fields[0] === "Z" || fields[0] === "X" };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "none" : null;
  }
}

/** This machine's boot and this process's pid namespace, when the platform can tell them. */
const here = (() => {
  if (process.platform !== "linux") return null;
  try {
    // A /proc of another pid namespace would name other processes under these pids.
    if (readlinkSync("/proc/self") !== String(process.pid)) return null;
    return {
      boot: readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(),
      namespace: readlinkSync("/proc/self/ns/pid"),
    };
  } catch {
    return null;
  }
})();

/** The identity of process `pid` of this machine and pid namespace, or null when it cannot be told. */
export function processIdOf(pid: number): string | null {
  const stat = here && statOf(pid);
  return stat && stat !== "none" ? [PREFIX, here.boot, here.namespace, pid, stat.start].join(" ") : null;
}

/** This process, as `processGone` reads it (anywhere but Linux, a name that proves nothing). */
export const PROCESS_ID = processIdOf(process.pid) ?? `${hostname()}:${process.pid}`;

/**
 * True only when `id` (a `PROCESS_ID`) names a process of this machine and pid namespace that has
 * ended. False when it still runs, when it cannot be told from here, or for no id.
 */
export function processGone(id: string | null | undefined): boolean {
  if (!here || !id) return false;
  const [prefix, boot, namespace, pid, start, ...rest] = id.split(" ");
  if (prefix !== PREFIX || rest.length || boot !== here.boot || namespace !== here.namespace) return false;
  if (!pid || !/^\d+$/u.test(pid) || !start) return false;
  const stat = statOf(Number(pid));
  if (stat === null) return false;
  return stat === "none" || stat.ended || stat.start !== start;
}
