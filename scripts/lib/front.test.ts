import { fork, type ChildProcess } from "node:child_process";
import { request } from "node:http";
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

  beforeAll(async () => {
    children = await Promise.all([startChild(), startChild()]);
    up = [true, true];
    front = await startFront(0, "127.0.0.1", () => children.map((child, i) => (up[i] ? child : undefined)));
  });

  afterAll(async () => {
    await front?.close();
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
