/** Processes of this machine to name as a video maker in tests. */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { processIdOf } from "../../shared/src/server/process-identity";

/** A process that runs until killed, and its identity read while it runs. */
export async function runningProcess(): Promise<{ proc: ChildProcess; id: string }> {
  const proc = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  await once(proc, "spawn");
  const id = processIdOf(proc.pid!);
  if (!id) {
    proc.kill("SIGKILL");
    throw new Error("this machine cannot name its processes (no /proc)");
  }
  return { proc, id };
}

/** The identity of a process of this machine that has ended (named while it ran, then SIGKILLed). */
export async function endedProcessId(): Promise<string> {
  const { proc, id } = await runningProcess();
  proc.kill("SIGKILL");
  await once(proc, "exit");
  return id;
}
