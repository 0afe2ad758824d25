import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { runningProcess } from "../../../tests/support/processes";
import { PROCESS_ID, processGone } from "./process-identity";

describe.runIf(process.platform === "linux")("process identity", () => {
  it("tells a running process from one that has ended", async () => {
    expect(processGone(PROCESS_ID)).toBe(false);
    const { proc, id } = await runningProcess();
    expect(id).toMatch(/^linux \S+ pid:\[\d+\] \d+ \d+$/u);
    expect(processGone(id)).toBe(false);
    proc.kill("SIGKILL");
    await once(proc, "exit");
    expect(processGone(id)).toBe(true);
  });

  it("does not take a later process with the same pid for the one that ended", () => {
    const [prefix, boot, namespace, pid, start] = PROCESS_ID.split(" ");
    expect(processGone([prefix, boot, namespace, pid, String(Number(start) + 1)].join(" "))).toBe(true);
  });

  it("proves nothing about a process of another boot or pid namespace, or a name it cannot read", () => {
    const [prefix, boot, namespace, , start] = PROCESS_ID.split(" ");
    const unlikelyPid = "4194303";
    expect(processGone([prefix, "another-boot", namespace, unlikelyPid, start].join(" "))).toBe(false);
    expect(processGone([prefix, boot, "pid:[1]", unlikelyPid, start].join(" "))).toBe(false);
    for (const garbage of [
      null,
      undefined,
      "",
      "host:123",
      `${PROCESS_ID} extra`,
      [prefix, boot, namespace, "x1", start].join(" "),
    ])
      expect(processGone(garbage)).toBe(false);
  });
});
