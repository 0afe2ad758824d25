import { Queue, UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { MESSAGES, QUEUE_NAMES } from "@storefront/shared";
import { createLogger, type Queues } from "@storefront/shared/server";
import { AppError } from "./errors";
import { jobFailed, JobWaiter } from "./job-waiter";

let redis: Redis;
let queues: Queues;
let waiter: JobWaiter;
let worker: Worker;
const connections: Redis[] = [];

beforeAll(async () => {
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  // A prefix of its own: the running stack's workers never see these jobs.
  const prefix = `waiter-test-${Date.now()}`;
  queues = Object.fromEntries(QUEUE_NAMES.map((q) => [q, new Queue(q, { connection: redis, prefix })])) as Queues;
  const connect = () => {
    const c = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
    connections.push(c);
    return c;
  };
  waiter = new JobWaiter(queues, connect, createLogger("waiter-test", "silent"), 5000);
  worker = new Worker(
    "chat",
    async (job) => {
      if (job.data.fail) throw new UnrecoverableError(String(job.data.fail));
      if (job.data.delayMs) await new Promise((r) => setTimeout(r, Number(job.data.delayMs)));
      // A worker of another version, or anything else completing jobs on the queue, with a result not of its schema.
      if (job.data.malformed) return { text: `echo ${job.data.text}` };
      return { reply: `echo ${job.data.text}` };
    },
    { connection: redis.duplicate(), prefix, autorun: false },
  );
  // Started here, not in the first test: each test can run on its own.
  void worker.run();
});
afterAll(async () => {
  await worker.close();
  await waiter.close();
  await Promise.all(Object.values(queues).map((q) => q.close()));
  for (const c of connections) c.disconnect();
  redis.disconnect();
});

describe("JobWaiter", () => {
  it("resolves with the return value of a job that completes while waiting", async () => {
    const job = await queues.chat.add("t", { text: "one", delayMs: 200 }, { jobId: "w-1" });
    await expect(waiter.wait("chat", job.id!)).resolves.toEqual({ reply: "echo one" });
  });

  it("resolves at once for a job that finished before the wait began", async () => {
    await queues.chat.add("t", { text: "two" }, { jobId: "w-2" });
    while ((await queues.chat.getJobState("w-2")) !== "completed") await new Promise((r) => setTimeout(r, 20));
    await expect(waiter.wait("chat", "w-2")).resolves.toEqual({ reply: "echo two" });
  });

  it("serves many waiters, and rejects a failed job with its code and neutral text as a 502, never the detail", async () => {
    const ids = ["w-3", "w-4", "w-5"];
    await Promise.all(ids.map((id) => queues.chat.add("t", { text: id, delayMs: 100 }, { jobId: id })));
    await queues.chat.add("t", { fail: "[ai_busy] openai answered 429: litellm.RateLimitError" }, { jobId: "w-6" });
    const results = await Promise.all(ids.map((id) => waiter.wait("chat", id)));
    expect(results).toEqual(ids.map((id) => ({ reply: `echo ${id}` })));
    const error = await waiter.wait("chat", "w-6").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 502,
      code: "ai_busy",
      message: "The AI service is busy. Please try again in a minute.",
    });
    expect(jobFailed("w-7", "worker stalled")).toMatchObject({ code: "job_failed", message: MESSAGES.jobFailed });
  });

  it("hears a job that completes after the listener is ready but before its first read of the stream", async () => {
    // The listener's first blocking read is sent after its CLIENT SETNAME. Holding that command back
    // until the job has completed opens the window in which only a read that starts from the
    // stream's position before "ready" hears the completion.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    type Sent = { name: string; args: unknown[]; promise: Promise<unknown> };
    const proto = Redis.prototype as unknown as { sendCommand(this: Redis, command: Sent): unknown };
    const send = proto.sendCommand;
    proto.sendCommand = function (command) {
      if (command.name === "client" && String(command.args[0]).toLowerCase() === "setname") {
        void held.then(() => send.call(this, command));
        return command.promise;
      }
      return send.call(this, command);
    };
    const fresh = new JobWaiter(
      queues,
      () => new Redis(inject("redisUrl"), { maxRetriesPerRequest: null }),
      createLogger("waiter-test", "silent"),
      3000,
    );
    try {
      await queues.chat.add("t", { text: "race", delayMs: 300 }, { jobId: "w-race" });
      const answer = fresh.wait("chat", "w-race");
      while ((await queues.chat.getJobState("w-race")) !== "completed") await new Promise((r) => setTimeout(r, 20));
      release();
      await expect(answer).resolves.toEqual({ reply: "echo race" });
    } finally {
      proto.sendCommand = send;
      release();
      await fresh.close();
    }
  });

  it("hears a job watched before it was added, without reading its state, and forgets a cancelled watch", async () => {
    const read = vi.spyOn(queues.chat, "getJobState");
    try {
      const watch = await waiter.watch("chat", "w-watch");
      await queues.chat.add("t", { text: "watched" }, { jobId: "w-watch" });
      await expect(watch.result()).resolves.toEqual({ reply: "echo watched" });
      const failing = await waiter.watch("chat", "w-watch-fail");
      await queues.chat.add("t", { fail: "[ai_refused] no" }, { jobId: "w-watch-fail" });
      await expect(failing.result()).rejects.toMatchObject({ status: 502, code: "ai_refused" });
      expect(read).not.toHaveBeenCalled();
      const cancelled = await waiter.watch("chat", "w-never-added");
      cancelled.cancel();
      await expect(cancelled.result(50)).rejects.toMatchObject({ status: 504 });
    } finally {
      read.mockRestore();
    }
  });

  it("answers a completed job whose result does not match its queue's schema as a 502 job_failed, never the value", async () => {
    await queues.chat.add("t", { text: "odd", malformed: true }, { jobId: "w-malformed" });
    const error = await waiter.wait("chat", "w-malformed").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 502,
      code: "job_failed",
      message: MESSAGES.jobFailed,
      extra: { jobId: "w-malformed" },
    });
    const watch = await waiter.watch("chat", "w-malformed-watched");
    await queues.chat.add("t", { text: "odd", malformed: true }, { jobId: "w-malformed-watched" });
    await expect(watch.result()).rejects.toMatchObject({ status: 502, code: "job_failed" });
  });

  it("answers 504 after the timeout while the job carries on, and 404 for an unknown job", async () => {
    await queues.chat.add("t", { text: "slow", delayMs: 800 }, { jobId: "w-7" });
    await expect(waiter.wait("chat", "w-7", 100)).rejects.toMatchObject({ status: 504 });
    await expect(waiter.wait("chat", "w-7")).resolves.toEqual({ reply: "echo slow" });
    await expect(waiter.wait("chat", "no-such-job")).rejects.toMatchObject({ status: 404 });
  });
});
