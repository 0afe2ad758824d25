import { fork, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { connect } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiProcessCount, slotOf, startFront, type Front } from "./front";

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "front-child.fixture.ts");

function startChild(): Promise<ChildProcess> {
  const child = fork(fixture, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "ignore", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("message", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`fixture exited (${code})`)));
  });
}

/** Tells a fixture to keep its event loop busy for `ms` (and then exit), once it has started to. */
function block(child: ChildProcess, ms: number, exit = false): Promise<void> {
  return new Promise((resolve) => {
    child.once("message", () => resolve());
    child.send({ type: "block", ms, exit });
  });
}

/** The pid that answered a request made from `localAddress` on a new connection. */
function answeredBy(port: number, localAddress = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, localAddress, path: "/", agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve(Number(body)));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Loopback addresses whose clients the front puts on the slot `wanted` of `count`. */
function addressesOnSlot(wanted: number, count: number, howMany: number): string[] {
  const found: string[] = [];
  for (let last = 1; found.length < howMany && last < 255; last++) {
    if (slotOf(`127.0.0.${last}`, count) === wanted) found.push(`127.0.0.${last}`);
  }
  return found;
}

describe("the front of several API processes", () => {
  let children: ChildProcess[];
  let up: boolean[];
  let front: Front;
  const slots = () => children.map((child, i) => (up[i] ? child : undefined));

  beforeAll(async () => {
    children = await Promise.all([startChild(), startChild()]);
    up = [true, true];
    front = await startFront(0, "127.0.0.1", slots, { maxWaiting: 4 });
  });

  afterAll(() => {
    front?.close();
    for (const child of children ?? []) child.kill();
  });

  it("keeps each client address on one process, and spreads addresses over all of them", async () => {
    const pids = children.map((c) => c.pid);
    for (const slot of [0, 1]) {
      for (const address of addressesOnSlot(slot, 2, 3)) {
        const answers = [await answeredBy(front.port, address), await answeredBy(front.port, address)];
        expect(answers).toEqual([pids[slot], pids[slot]]);
      }
    }
  });

  it("skips a process that is down or starting for the next one that is up", async () => {
    const [address] = addressesOnSlot(0, 2, 1);
    up = [false, true];
    try {
      expect(await answeredBy(front.port, address)).toBe(children[1]!.pid);
    } finally {
      up = [true, true];
    }
    expect(await answeredBy(front.port, address)).toBe(children[0]!.pid);
  });

  it("closes the connection when no process is up", async () => {
    up = [false, false];
    try {
      await expect(answeredBy(front.port)).rejects.toThrow(/socket hang up|ECONNRESET/u);
    } finally {
      up = [true, true];
    }
  });

  it("sends new clients to the next process while one has too many handovers unanswered", async () => {
    const addresses = addressesOnSlot(0, 2, 6);
    await block(children[0]!, 1500);
    // The first four wait for the busy process; the two after them go to the other.
    const answers = addresses.map((address) => answeredBy(front.port, address));
    const pids = await Promise.all(answers);
    expect(pids.filter((pid) => pid === children[0]!.pid)).toHaveLength(4);
    expect(pids.filter((pid) => pid === children[1]!.pid)).toHaveLength(2);
  });

  it("hands the clients of a process that is stopping to the next one", async () => {
    const stopping = await startChild();
    const other = children[1]!;
    const own = await startFront(0, "127.0.0.1", () => [stopping, other]);
    try {
      stopping.send({ type: "stop" });
      const [address] = addressesOnSlot(0, 2, 1);
      // Refused by the stopping process, answered by the other; and the next ones skip it.
      expect(await answeredBy(own.port, address)).toBe(other.pid);
      expect(await answeredBy(own.port, address)).toBe(other.pid);
    } finally {
      own.close();
      stopping.kill();
    }
  });

  it("closes, not loses, the connections a process had not taken when it died", async () => {
    const doomed = await startChild();
    const survivor = children[1]!;
    const own = await startFront(0, "127.0.0.1", () => [doomed, survivor]);
    try {
      await block(doomed, 500, true);
      const requests = addressesOnSlot(0, 2, 3).map((address) =>
        answeredBy(own.port, address).then(
          () => "answered",
          (error: Error) => error.message,
        ),
      );
      // Without the front's bookkeeping these would wait forever (the test's timeout).
      for (const outcome of await Promise.all(requests)) expect(outcome).toMatch(/socket hang up|ECONNRESET/u);
      // The next client of that slot goes to the process that is left.
      expect(await answeredBy(own.port, addressesOnSlot(0, 2, 1)[0])).toBe(survivor.pid);
    } finally {
      own.close();
      doomed.kill();
    }
  });

  it("closes a connection no process answered for in time, and frees its place", async () => {
    const mute = await startChild();
    const own = await startFront(0, "127.0.0.1", () => [mute, children[1]!], { maxWaiting: 1, answerTimeoutMs: 200 });
    try {
      await new Promise<void>((resolve) => {
        mute.send({ type: "mute" }, () => resolve());
      });
      const [address] = addressesOnSlot(0, 2, 1);
      // Without the deadline this client would wait forever, and the muted process's one place stay taken.
      await expect(answeredBy(own.port, address)).rejects.toThrow(/socket hang up|ECONNRESET/u);
      await new Promise<void>((resolve) => {
        mute.send({ type: "unmute" }, () => resolve());
      });
      expect(await answeredBy(own.port, address)).toBe(mute.pid);
    } finally {
      own.close();
      mute.kill();
    }
  });

  it("stops listening at once, while a connection it handed over is still open", async () => {
    const own = await startFront(0, "127.0.0.1", slots);
    const idle = connect(own.port, "127.0.0.1");
    await new Promise((resolve) => idle.once("connect", resolve));
    own.close();
    await expect(answeredBy(own.port)).rejects.toThrow(/ECONNREFUSED/u);
    idle.destroy();
  });

  it("gives every address a slot in range, the same each time", () => {
    for (const address of ["127.0.0.1", "::1", "::ffff:10.0.0.7", "2001:db8::1", undefined]) {
      const slot = slotOf(address, 3);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(3);
      expect(slotOf(address, 3)).toBe(slot);
    }
    // Not all one slot: the hash spreads a range of addresses.
    const slots = new Set(Array.from({ length: 20 }, (_, i) => slotOf(`10.0.0.${i}`, 4)));
    expect(slots.size).toBe(4);
  });
});

describe("API_PROCESSES", () => {
  it("defaults to the cores and takes a whole number from 1 to 64", () => {
    expect(apiProcessCount(undefined, 2)).toBe(2);
    expect(apiProcessCount(" ", 8)).toBe(8);
    expect(apiProcessCount("3", 2)).toBe(3);
    expect(apiProcessCount(" 1 ", 16)).toBe(1);
    expect(apiProcessCount(undefined, 128)).toBe(64);
  });

  it("refuses anything else, naming the variable", () => {
    for (const bad of ["0", "65", "1.5", "-2", "two", "1e1", "0x2"]) {
      expect(() => apiProcessCount(bad, 2)).toThrow(/^API_PROCESSES must be a whole number from 1 to 64 \(got/u);
    }
  });
});
