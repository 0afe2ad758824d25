import { fork, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
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

/** The raw answer to a request sent on a new connection (read to the server's close). */
function rawAnswer(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
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

  it("keeps a connection while no process is up, and hands it over when one comes up", async () => {
    up = [false, false];
    const answer = answeredBy(front.port);
    // Still waiting, unread, after a few rounds of the front's queue (50 ms each).
    const early = await Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve("waiting"), 300))]);
    up = [true, true];
    expect(early).toBe("waiting");
    expect(children.map((c) => c.pid)).toContain(await answer);
  });

  it("answers 503 with Retry-After, never a reset, past its queue's time or its bound", async () => {
    const own = await startFront(0, "127.0.0.1", () => [undefined], { queueTimeoutMs: 100 });
    const full = await startFront(0, "127.0.0.1", () => [undefined], { maxHeld: 2 });
    try {
      const waited = await rawAnswer(own.port);
      expect(waited).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/u);
      expect(waited).toMatch(/\r\nRetry-After: 2\r\n/u);
      expect(JSON.parse(waited.slice(waited.indexOf("\r\n\r\n") + 4))).toMatchObject({ success: false, code: "unavailable" });
      // Two held (no process is up), the third answered at once.
      const held = [rawAnswer(full.port), rawAnswer(full.port)];
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await rawAnswer(full.port)).toMatch(/^HTTP\/1\.1 503 /u);
      full.close();
      for (const answer of await Promise.all(held)) expect(answer).toMatch(/^HTTP\/1\.1 503 /u);
    } finally {
      own.close();
      full.close();
    }
  });

  it("counts the connections it answers 503 and ends each within its lifetime, however slowly the client sends", async () => {
    const bounded = await startFront(0, "127.0.0.1", () => [undefined], {
      maxHeld: 2,
      maxAnswering: 1,
      answerLifetimeMs: 60_000,
    });
    const brief = await startFront(0, "127.0.0.1", () => [undefined], { maxHeld: 1, answerLifetimeMs: 300 });
    const trickling: Socket[] = [];
    /** A client that reads the answer and never closes its side, sending a byte every 50 ms (an idle timeout never fires). */
    const trickle = (port: number) =>
      new Promise<{ answer: string; closed: Promise<void> }>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.write("GET /api/health HTTP/1.1\r\nHost: x\r\n"));
        trickling.push(socket);
        socket.allowHalfOpen = true;
        const ticker = setInterval(() => socket.writable && socket.write("X"), 50);
        const closed = new Promise<void>((done) => socket.once("close", () => (clearInterval(ticker), done())));
        socket.once("data", (chunk: Buffer) => resolve({ answer: chunk.toString(), closed }));
        socket.on("error", () => undefined);
        socket.once("close", () => reject(new Error("closed before an answer")));
      });
    /**
     * What a plain client gets: the answer, or nothing when the front closes the connection first;
     * resolved once connected (so the next client is accepted after it).
     */
    const outcome = (port: number) =>
      new Promise<{ answer: Promise<string> }>((connected) => {
        const socket = connect(port, "127.0.0.1", () => {
          socket.write("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n");
          connected({ answer });
        });
        let text = "";
        const answer = new Promise<string>((resolve) => socket.once("close", () => resolve(text)));
        socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
        socket.on("error", () => undefined);
      });
    try {
      // Two held (no process is up), the third answered 503 and kept open by its client: one answering.
      const held = [await outcome(bounded.port), await outcome(bounded.port)];
      expect((await trickle(bounded.port)).answer).toMatch(/^HTTP\/1\.1 503 /u);
      // Past the bound and with no room to answer: closed at once, holding nothing.
      expect(await (await outcome(bounded.port)).answer).toBe("");

      // The answer's lifetime is not an idle timeout: the front closes a trickling client's socket.
      const waiting = await outcome(brief.port);
      const answered = await trickle(brief.port);
      expect(answered.answer).toMatch(/^HTTP\/1\.1 503 /u);
      await answered.closed;
      bounded.close();
      brief.close();
      for (const client of [...held, waiting]) expect(await client.answer).toMatch(/^HTTP\/1\.1 503 /u);
    } finally {
      for (const socket of trickling) socket.destroy();
      bounded.close();
      brief.close();
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

  it("hands the connections a process had not taken when it died to the process that is left", async () => {
    const doomed = await startChild();
    const survivor = children[1]!;
    const own = await startFront(0, "127.0.0.1", () => [doomed, survivor]);
    try {
      await block(doomed, 500, true);
      // Handed to the blocked process, which dies without taking them: none is lost or reset.
      const answers = await Promise.all(addressesOnSlot(0, 2, 3).map((address) => answeredBy(own.port, address)));
      expect(answers).toEqual([survivor.pid, survivor.pid, survivor.pid]);
    } finally {
      own.close();
      doomed.kill();
    }
  });

  it("passes over a process that leaves a handover unanswered, and closes one it never got", async () => {
    const mute = await startChild();
    const own = await startFront(0, "127.0.0.1", () => [mute, children[1]!], { answerTimeoutMs: 200, abandonAfterMs: 300 });
    try {
      await new Promise<void>((resolve) => {
        mute.send({ type: "mute" }, () => resolve());
      });
      const [first, second] = addressesOnSlot(0, 2, 2);
      // Dropped by the muted process (as one out of file descriptors does): closed once abandoned.
      const lost = answeredBy(own.port, first).then(
        () => "answered",
        (error: Error) => error.message,
      );
      await new Promise((resolve) => setTimeout(resolve, 250));
      // Its oldest handover is past answerTimeoutMs: the next client of its slot goes to the other process.
      expect(await answeredBy(own.port, second)).toBe(children[1]!.pid);
      expect(await lost).toMatch(/socket hang up|ECONNRESET/u);
      await new Promise<void>((resolve) => {
        mute.send({ type: "unmute" }, () => resolve());
      });
      // Nothing unanswered is left: its clients go to it again.
      expect(await answeredBy(own.port, first)).toBe(mute.pid);
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
  it("defaults to one per two cores (one on two) and takes a whole number from 1 to 64", () => {
    expect(apiProcessCount(undefined, 2)).toBe(1);
    expect(apiProcessCount(undefined, 1)).toBe(1);
    expect(apiProcessCount(undefined, 3)).toBe(1);
    expect(apiProcessCount(" ", 8)).toBe(4);
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
