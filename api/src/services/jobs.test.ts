import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { credit, hold, LedgerEntry, migrateLedger, User } from "@storefront/shared/server";
import type { AppContext } from "../context";
import { acceptJob, releaseUnqueued, type AcceptJobInput } from "./jobs";

describe("acceptJob payloads", () => {
  const base = {
    name: "generate",
    userId: "0123456789abcdef01234567",
    feature: "image",
    cost: 1,
    idempotencyKey: undefined,
    details: "t",
  } as const;
  /** A context whose every use fails the test: a refused payload must not reach the wallet or a queue. */
  const untouchable = new Proxy({} as AppContext, {
    get: (_, key) => {
      throw new Error(`acceptJob used ctx.${String(key)} for a refused payload`);
    },
  });

  it("does not compile a payload of another queue", () => {
    const wrong: AcceptJobInput<"image"> = {
      ...base,
      queue: "image",
      // @ts-expect-error a chat payload is not an image payload
      payload: { message: "hi", persona: "general", language: "en", conversationId: null, history: [] },
    };
    expect(wrong.queue).toBe("image");
  });

  it("refuses at run time a payload its queue's schema does not accept, before holding anything", async () => {
    const wrong = { ...base, queue: "image", payload: { mode: "generate", prompt: "tea" } } as unknown as AcceptJobInput<"image">;
    await expect(acceptJob(untouchable, wrong)).rejects.toMatchObject({ name: "ZodError" });
  });
});

describe("releaseUnqueued (an add reported failed)", () => {
  const name = `jobs-unit-${process.pid}`;
  let connection: Redis;
  let queue: Queue;
  let seq = 0;

  beforeAll(async () => {
    await mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/jobs_unit"));
    await Promise.all([User.createIndexes(), LedgerEntry.createIndexes()]);
    await migrateLedger(); // nothing to move: marks this database's ledger as the chain format
    connection = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
    queue = new Queue(name, { connection });
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    connection.disconnect();
    await mongoose.disconnect();
  });

  /** A user with 50 coins and 10 of them held for a job, as acceptJob leaves them before the add. */
  async function held(): Promise<{ userId: string; holdKey: string; jobId: string }> {
    seq += 1;
    const user = await User.create({ phone: `+31${Date.now()}${seq}`, passwordHash: "x" });
    const userId = String(user._id);
    await credit(userId, 50, `seed:${userId}`, "credit", "seed");
    const holdKey = `job:image:${userId}:${seq}`;
    const jobId = `unqueued-${process.pid}-${seq}`;
    await hold({ userId, coins: 10, key: holdKey, feature: "image", queue: name, jobId });
    return { userId, holdKey, jobId };
  }
  const coins = async (userId: string) => (await User.findById(userId).lean<{ coins: number }>())!.coins;
  const holdState = async (key: string) => (await LedgerEntry.findOne({ key }).lean())?.holdState;

  it("takes out a job whose add reached Redis though its answer was lost, then refunds", async () => {
    const { userId, holdKey, jobId } = await held();
    await queue.add("generate", { holdKey }, { jobId });
    expect(await releaseUnqueued(queue, jobId, holdKey)).toMatchObject({ amount: 10, balanceAfter: 50 });
    expect(await queue.getJob(jobId)).toBeUndefined();
    expect(await coins(userId)).toBe(50);
  });

  it("refunds at once when the job never reached the queue", async () => {
    const { userId, holdKey, jobId } = await held();
    expect(await releaseUnqueued(queue, jobId, holdKey)).toMatchObject({ amount: 10 });
    expect(await coins(userId)).toBe(50);
  });

  it("leaves the hold to a job a worker already runs", async () => {
    const { userId, holdKey, jobId } = await held();
    let finish = () => undefined as void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const worker = new Worker(name, () => gate, { connection: new Redis(inject("redisUrl"), { maxRetriesPerRequest: null }) });
    try {
      const active = new Promise<void>((resolve) => worker.once("active", () => resolve()));
      await queue.add("generate", { holdKey }, { jobId });
      await active;
      await expect(releaseUnqueued(queue, jobId, holdKey)).rejects.toThrow();
      expect(await holdState(holdKey)).toBe("held");
      expect(await coins(userId)).toBe(40);
    } finally {
      finish();
      await worker.close();
    }
  });
});
