import { UnrecoverableError, type Job } from "bullmq";
import mongoose from "mongoose";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import {
  credit,
  debit,
  hold,
  LedgerEntry,
  loadConfig,
  migrateLedger,
  providerBackoff,
  releaseHold,
  rerunMarkerKey,
  User,
  createLogger,
  type Pusher,
  type Storage,
} from "@storefront/shared/server";
import { Redis } from "ioredis";
import { ProviderError } from "../providers/errors";
import { MESSAGES } from "@storefront/shared";
import type { WorkerContext } from "../context";
import { chargedProcessor, failureCode } from "./charged";
import { chatProcessor, setChatProvider } from "./chat";
import { cutAtDeadline } from "../../../tests/support/providers";

const pushes: { userId: string; event: string; payload: Record<string, unknown> }[] = [];
const pusher = {
  toUser: (userId: string, event: string, payload: Record<string, unknown>) => pushes.push({ userId, event, payload }),
  toAdmins: () => undefined,
} as unknown as Pusher;

let ctx: WorkerContext;

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/charged_unit"));
  await Promise.all([User.createIndexes(), LedgerEntry.createIndexes()]);
  await migrateLedger(); // nothing to move: marks this database's ledger as the chain format
  const config = loadConfig({ MONGODB_URI: inject("mongoUri"), REDIS_URL: inject("redisUrl"), NODE_ENV: "test" });
  ctx = {
    config,
    pusher,
    redis: new Redis(inject("redisUrl")),
    storage: {} as Storage,
    log: createLogger("charged-test", "silent"),
  };
});
afterAll(async () => {
  await mongoose.disconnect();
  ctx.redis.disconnect();
});
beforeEach(() => {
  pushes.length = 0;
});

let seq = 0;
/** A user with 50 coins, and the key their next job's hold goes under. */
async function fundedUser(): Promise<{ userId: string; holdKey: string }> {
  seq += 1;
  const user = await User.create({ phone: `+30${Date.now()}${seq}`, passwordHash: "x" });
  const userId = String(user._id);
  await credit(userId, 50, `seed:${userId}`, "credit", "seed");
  return { userId, holdKey: `job:chat:${userId}:${seq}` };
}

/** A user with 50 coins and a hold of 10 of them, as acceptJob leaves it. */
async function heldJob(): Promise<{ userId: string; holdKey: string }> {
  const { userId, holdKey } = await fundedUser();
  await hold({ userId, coins: 10, key: holdKey, feature: "text", queue: "chat", jobId: `chat-${seq}` });
  return { userId, holdKey };
}

/** A job as BullMQ hands it over: `attemptsStarted` counts this start (2 and up: retried or redelivered). */
function fakeJob(data: Record<string, unknown>, attemptsMade = 0, attempts = 3, attemptsStarted = attemptsMade + 1): Job {
  return { id: `chat-${seq}`, name: "text", data, attemptsMade, attemptsStarted, opts: { attempts } } as unknown as Job;
}

function chatData(userId: string, holdKey: string) {
  return { userId, holdKey, message: "hi", persona: "general", language: "en", conversationId: null, history: [] };
}

async function coins(userId: string): Promise<number> {
  return (await User.findById(userId).lean<{ coins: number }>())!.coins;
}

const holdState = async (key: string) => (await LedgerEntry.findOne({ key }).lean())?.holdState;

describe("chargedProcessor", () => {
  it("settles the hold, pushes job:completed and returns the handler's result", async () => {
    const { userId, holdKey } = await heldJob();
    const processor = chargedProcessor(ctx, "chat", async () => ({ reply: "ok" }));
    await expect(processor(fakeJob(chatData(userId, holdKey)))).resolves.toEqual({ reply: "ok" });
    expect(await holdState(holdKey)).toBe("settled");
    expect(await coins(userId)).toBe(40);
    expect(pushes).toEqual([
      { userId, event: "job:completed", payload: { jobId: `chat-${seq}`, queue: "chat", result: { reply: "ok" } } },
    ]);
  });

  it("returns, not makes again, what a run that died after settling made", async () => {
    const { userId, holdKey } = await heldJob();
    let made = 0;
    const processor = chargedProcessor(ctx, "chat", async () => ({ reply: `made ${++made}` }));
    await expect(processor(fakeJob(chatData(userId, holdKey)))).resolves.toEqual({ reply: "made 1" });
    pushes.length = 0;
    // Redelivered after its process died between the settle and BullMQ's completion.
    await expect(processor(fakeJob(chatData(userId, holdKey), 0, 3, 2))).resolves.toEqual({ reply: "made 1" });
    expect(made).toBe(1);
    expect(await coins(userId)).toBe(40);
    expect(pushes).toEqual([
      { userId, event: "job:completed", payload: { jobId: `chat-${seq}`, queue: "chat", result: { reply: "made 1" } } },
    ]);
  });

  it("once the kept result is gone, asks the queue's hook, and without one runs the job again, charged once", async () => {
    const { userId, holdKey } = await heldJob();
    let made = 0;
    const hooks = { finishedResult: () => ({ reply: "told by the queue" }) };
    const processor = chargedProcessor(ctx, "chat", async () => ({ reply: `made ${++made}` }), hooks);
    await expect(processor(fakeJob(chatData(userId, holdKey)))).resolves.toEqual({ reply: "made 1" });
    await ctx.redis.del(`job-result:chat:chat-${seq}`);
    await expect(processor(fakeJob(chatData(userId, holdKey), 0, 3, 2))).resolves.toEqual({ reply: "told by the queue" });
    const plain = chargedProcessor(ctx, "chat", async () => ({ reply: `made ${++made}` }));
    await expect(plain(fakeJob(chatData(userId, holdKey), 0, 3, 3))).resolves.toEqual({ reply: "made 2" });
    expect(made).toBe(2);
    expect(await coins(userId)).toBe(40);
  });

  it("settles and returns the result when Redis refuses to keep it", async () => {
    const { userId, holdKey } = await heldJob();
    // A real refusal: a Redis user that may read but not SET.
    const user = `charged-no-set-${seq}`;
    await ctx.redis.call("ACL", "SETUSER", user, "on", ">pw", "~*", "&*", "+@all", "-set");
    const limited = new Redis(inject("redisUrl"), { username: user, password: "pw" });
    try {
      const processor = chargedProcessor({ ...ctx, redis: limited }, "chat", async () => ({ reply: "made" }));
      await expect(processor(fakeJob(chatData(userId, holdKey), 2, 3))).resolves.toEqual({ reply: "made" });
      expect(await holdState(holdKey)).toBe("settled");
      expect(await coins(userId)).toBe(40);
      expect(await ctx.redis.exists(`job-result:chat:chat-${seq}`)).toBe(0);
    } finally {
      limited.disconnect();
      await ctx.redis.call("ACL", "DELUSER", user);
    }
  });

  it("rethrows a transient error before the last attempt and keeps the hold", async () => {
    const { userId, holdKey } = await heldJob();
    const processor = chargedProcessor(ctx, "chat", async () => {
      throw new ProviderError("overloaded", { retryable: true });
    });
    await expect(processor(fakeJob(chatData(userId, holdKey), 0, 3))).rejects.toThrow("overloaded");
    expect(await holdState(holdKey)).toBe("held");
    expect(pushes).toEqual([]);
  });

  it("refunds once on the last attempt, tells the user a neutral text and code, and fails the job with the detail", async () => {
    const { userId, holdKey } = await heldJob();
    const processor = chargedProcessor(ctx, "chat", async () => {
      throw new ProviderError("openai answered 503: overloaded", { retryable: true, status: 503 });
    });
    await expect(processor(fakeJob(chatData(userId, holdKey), 2, 3))).rejects.toThrow(
      "[ai_unavailable] openai answered 503: overloaded",
    );
    expect(await holdState(holdKey)).toBe("released");
    expect(await coins(userId)).toBe(50);
    expect(pushes.map((p) => [p.event, p.payload.refunded ?? p.payload.coins])).toEqual([
      ["job:failed", 10],
      ["wallet:updated", 50],
    ]);
    expect(pushes[0]!.payload).toMatchObject({ code: "ai_unavailable", error: MESSAGES.aiUnavailable });
    // A repeated final failure (e.g. a redelivered job) refunds nothing more and does not run.
    await expect(processor(fakeJob(chatData(userId, holdKey), 2, 3))).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await coins(userId)).toBe(50);
    expect(await LedgerEntry.countDocuments({ key: `release:${holdKey}` })).toBe(1);
  });

  it("runs onFinalFailure once, after the refund, and not for an attempt BullMQ retries", async () => {
    const { userId, holdKey } = await heldJob();
    const calls: { reason: string; state: string | null | undefined }[] = [];
    const processor = chargedProcessor(
      ctx,
      "chat",
      async () => {
        throw new ProviderError("overloaded", { retryable: true });
      },
      { onFinalFailure: async (_data, reason) => void calls.push({ reason, state: await holdState(holdKey) }) },
    );
    await expect(processor(fakeJob(chatData(userId, holdKey), 0, 2))).rejects.toThrow("overloaded");
    expect(calls).toEqual([]);
    await expect(processor(fakeJob(chatData(userId, holdKey), 1, 2))).rejects.toThrow("overloaded");
    expect(calls).toEqual([{ reason: "overloaded", state: "released" }]);
  });

  it("turns a permanent provider error into UnrecoverableError and refunds at the first attempt", async () => {
    const { userId, holdKey } = await heldJob();
    const processor = chargedProcessor(ctx, "chat", async () => {
      throw new ProviderError("content refused", { retryable: false });
    });
    await expect(processor(fakeJob(chatData(userId, holdKey), 0, 3))).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await holdState(holdKey)).toBe("released");
    expect(await coins(userId)).toBe(50);
  });

  it("names a provider's 429 ai_busy and its refusal ai_refused, other failures job_failed", () => {
    expect(failureCode(new ProviderError("openai answered 429: litellm.RateLimitError", { retryable: true, status: 429 }))).toBe(
      "ai_busy",
    );
    expect(failureCode(new ProviderError("openai answered 400: policy", { retryable: false, status: 400 }))).toBe("ai_refused");
    expect(failureCode(new ProviderError("openai could not be reached: fetch failed", { retryable: true }))).toBe(
      "ai_unavailable",
    );
    expect(failureCode(new Error("The AI returned an empty reply"))).toBe("job_failed");
  });

  it("fails a waited-on job at once when the next retry would start past AI_RETRY_BUDGET_MS", async () => {
    const { userId, holdKey } = await heldJob();
    const processor = chargedProcessor(ctx, "chat", async () => {
      throw new ProviderError("openai answered 429: slow down", { retryable: true, status: 429, retryAfterMs: 30_000 });
    });
    const job = { ...fakeJob(chatData(userId, holdKey), 0, 5), timestamp: Date.now() } as unknown as Job;
    await expect(processor(job)).rejects.toThrow("[ai_busy] openai answered 429: slow down");
    expect(await holdState(holdKey)).toBe("released");
    expect(pushes[0]!.payload).toMatchObject({ code: "ai_busy", error: MESSAGES.aiBusy, refunded: 10 });
  });

  it("refuses a payload its queue's schema rejects, and releases the hold", async () => {
    const { userId, holdKey } = await heldJob();
    let ran = false;
    const processor = chargedProcessor(ctx, "chat", async () => {
      ran = true;
      return { reply: "not reached" };
    });
    await expect(processor(fakeJob({ userId, holdKey, message: "" }))).rejects.toBeInstanceOf(UnrecoverableError);
    expect(ran).toBe(false);
    expect(await holdState(holdKey)).toBe("released");
  });

  it("does not run a job started before whose hold was released since", async () => {
    const { userId, holdKey } = await heldJob();
    await releaseHold(holdKey, "swept", "test");
    let ran = false;
    const processor = chargedProcessor(ctx, "chat", async () => {
      ran = true;
      return { reply: "not reached" };
    });
    await expect(processor(fakeJob(chatData(userId, holdKey), 1, 3))).rejects.toThrow("refunded");
    expect(ran).toBe(false);
    expect(await coins(userId)).toBe(50);
  });

  it("runs a job left queued after its hold was released while no worker was live, charged again once", async () => {
    const { userId, holdKey } = await heldJob();
    await releaseHold(holdKey, "no live worker", "test");
    await ctx.redis.set(rerunMarkerKey("chat", `chat-${seq}`), "1", "EX", 60);
    const processor = chargedProcessor(ctx, "chat", async () => ({ reply: "late but paid" }));
    await expect(processor(fakeJob(chatData(userId, holdKey)))).resolves.toEqual({ reply: "late but paid" });
    expect(await holdState(`${holdKey}:rerun`)).toBe("settled");
    expect(await coins(userId)).toBe(40);
  });

  it("refuses to charge a rerun past the user's daily cap: no coins move, the job fails with daily_cap_reached", async () => {
    const { userId, holdKey } = await heldJob();
    await releaseHold(holdKey, "no live worker", "test");
    await ctx.redis.set(rerunMarkerKey("chat", `chat-${seq}`), "1", "EX", 60);
    // Meanwhile the user set a cap of 15 coins a day and spent 10 of it elsewhere: the rerun's 10 would pass it.
    await User.updateOne({ _id: userId }, { $set: { dailyCap: 15 } });
    await debit(userId, 10, `elsewhere:${userId}`, "image", "", 15);
    let ran = false;
    const processor = chargedProcessor(ctx, "chat", async () => {
      ran = true;
      return { reply: "not paid for" };
    });
    const failed = processor(fakeJob(chatData(userId, holdKey)));
    await expect(failed).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(failed).rejects.toThrow(/^\[daily_cap_reached\] /u);
    expect(ran).toBe(false);
    expect(await coins(userId)).toBe(40);
    expect(await LedgerEntry.exists({ key: `${holdKey}:rerun` })).toBeNull();
    expect(pushes).toEqual([
      {
        userId,
        event: "job:failed",
        // The refusal's figures, for the subscriber's text (the web's 402 text of the daily cap).
        payload: {
          jobId: `chat-${seq}`,
          queue: "chat",
          code: "daily_cap_reached",
          error: MESSAGES.dailyCapReached,
          refunded: 0,
          cap: 15,
          spent: 10,
          needed: 10,
        },
      },
    ]);
  });

  it("refuses to charge a rerun the balance no longer covers, and pushes the coins needed and available", async () => {
    const { userId, holdKey } = await heldJob();
    await releaseHold(holdKey, "no live worker", "test");
    await ctx.redis.set(rerunMarkerKey("chat", `chat-${seq}`), "1", "EX", 60);
    // Meanwhile the user spent 45 of the 50 coins the release gave back: the rerun's 10 are not there.
    await debit(userId, 45, `elsewhere:${userId}`, "image");
    const processor = chargedProcessor(ctx, "chat", async () => ({ reply: "not paid for" }));
    const failed = processor(fakeJob(chatData(userId, holdKey)));
    await expect(failed).rejects.toThrow(/^\[insufficient_coins\] /u);
    expect(await coins(userId)).toBe(5);
    expect(pushes).toEqual([
      {
        userId,
        event: "job:failed",
        payload: {
          jobId: `chat-${seq}`,
          queue: "chat",
          code: "insufficient_coins",
          error: MESSAGES.insufficientCoins,
          refunded: 0,
          needed: 10,
          available: 5,
        },
      },
    ]);
  });

  it("refunds both holds of a rerun whose first release was cut short (left releasing) when it fails for good", async () => {
    const { userId, holdKey } = await heldJob();
    // The API claimed the release (held → releasing) and died before writing the refund; it left the marker.
    await LedgerEntry.updateOne({ key: holdKey }, { $set: { holdState: "releasing" } });
    await ctx.redis.set(rerunMarkerKey("chat", `chat-${seq}`), "1", "EX", 60);
    const processor = chargedProcessor(ctx, "chat", async () => {
      throw new UnrecoverableError("bad prompt");
    });
    await expect(processor(fakeJob(chatData(userId, holdKey)))).rejects.toThrow("[job_failed] bad prompt");
    expect(await holdState(holdKey)).toBe("released");
    expect(await holdState(`${holdKey}:rerun`)).toBe("released");
    expect(await coins(userId)).toBe(50);
    expect(pushes.find((p) => p.event === "job:failed")?.payload).toMatchObject({ refunded: 10 });
    expect(pushes.filter((p) => p.event === "wallet:updated").at(-1)?.payload).toMatchObject({ coins: 50 });
  });

  it("does not count a release cut short against the coins or the daily cap of the rerun", async () => {
    const { userId, holdKey } = await heldJob();
    // A cap of 15 a day, 10 of it the first hold's: its refund gives the 10 back, so the rerun's 10 fit.
    await User.updateOne({ _id: userId }, { $set: { dailyCap: 15 } });
    await LedgerEntry.updateOne({ key: holdKey }, { $set: { holdState: "releasing" } });
    await ctx.redis.set(rerunMarkerKey("chat", `chat-${seq}`), "1", "EX", 60);
    const processor = chargedProcessor(ctx, "chat", async () => ({ reply: "paid once" }));
    await expect(processor(fakeJob(chatData(userId, holdKey)))).resolves.toEqual({ reply: "paid once" });
    expect(await holdState(holdKey)).toBe("released");
    expect(await holdState(`${holdKey}:rerun`)).toBe("settled");
    expect(await coins(userId)).toBe(40);

    // And the balance: 45 of the 50 spent while the first release was cut short, its 10 still to come back.
    const other = await heldJob();
    await debit(other.userId, 35, `elsewhere:${other.userId}`, "image");
    await LedgerEntry.updateOne({ key: other.holdKey }, { $set: { holdState: "releasing" } });
    await ctx.redis.set(rerunMarkerKey("chat", `chat-${seq}`), "1", "EX", 60);
    await expect(processor(fakeJob(chatData(other.userId, other.holdKey)))).resolves.toEqual({ reply: "paid once" });
    expect(await coins(other.userId)).toBe(5);
  });

  it("charges work done after its hold was released while it ran, even past the daily cap: the cap was checked when it was accepted", async () => {
    const { userId, holdKey } = await heldJob();
    await User.updateOne({ _id: userId }, { $set: { dailyCap: 15 } });
    const processor = chargedProcessor(ctx, "chat", async () => {
      // The API saw no live worker: marker, then release (api/src/services/frozen-workers.ts).
      await ctx.redis.set(rerunMarkerKey("chat", `chat-${seq}`), "1", "EX", 60);
      await releaseHold(holdKey, "no live worker", "test");
      // Meanwhile the user spent 10 of the day's 15 elsewhere.
      await debit(userId, 10, `elsewhere:${userId}`, "image", "", 15);
      return { reply: "streamed already" };
    });
    await expect(processor(fakeJob(chatData(userId, holdKey)))).resolves.toEqual({ reply: "streamed already" });
    expect(await holdState(`${holdKey}:rerun`)).toBe("settled");
    expect(await coins(userId)).toBe(30);
    expect(pushes.filter((p) => p.event === "job:completed")).toHaveLength(1);
  });

  it("fails, without running it again or refunding, a settled job whose kept result no longer reads", async () => {
    const { userId, holdKey } = await heldJob();
    let made = 0;
    const processor = chargedProcessor(ctx, "chat", async () => ({ reply: `made ${++made}` }));
    await expect(processor(fakeJob(chatData(userId, holdKey)))).resolves.toEqual({ reply: "made 1" });
    await ctx.redis.set(`job-result:chat:chat-${seq}`, "{not json");
    pushes.length = 0;
    await expect(processor(fakeJob(chatData(userId, holdKey), 0, 3, 2))).rejects.toThrow(/^\[job_failed\] /u);
    expect(made).toBe(1);
    expect(await holdState(holdKey)).toBe("settled");
    expect(await coins(userId)).toBe(40);
    expect(pushes.map((p) => [p.event, p.payload.refunded])).toEqual([["job:failed", 0]]);
  });

  it("settles and returns, not makes again, what a run that died before settling kept", async () => {
    const { userId, holdKey } = await heldJob();
    let made = 0;
    const processor = chargedProcessor(ctx, "chat", async () => ({ reply: `made ${++made}` }));
    // The run made and kept its result; its process died before the settle.
    await ctx.redis.set(`job-result:chat:chat-${seq}`, JSON.stringify({ reply: "kept" }), "EX", 60);
    await expect(processor(fakeJob(chatData(userId, holdKey), 0, 3, 2))).resolves.toEqual({ reply: "kept" });
    expect(made).toBe(0);
    expect(await holdState(holdKey)).toBe("settled");
    expect(await coins(userId)).toBe(40);
    expect(pushes.map((p) => p.event)).toEqual(["job:completed"]);
  });

  it("fails, refunds and pushes no job:completed when the handler's result does not match its queue's result schema", async () => {
    const { userId, holdKey } = await heldJob();
    // What a handler typed by hand (or a provider's answer passed through) might give back.
    const processor = chargedProcessor(
      ctx,
      "chat",
      async () => ({ text: "a reply under the wrong name" }) as unknown as { reply: string },
    );
    await expect(processor(fakeJob(chatData(userId, holdKey)))).rejects.toThrow("[job_failed] malformed job result: reply");
    expect(await holdState(holdKey)).toBe("released");
    expect(await coins(userId)).toBe(50);
    expect(pushes.filter((p) => p.event === "job:completed")).toEqual([]);
    expect(pushes.find((p) => p.event === "job:failed")?.payload).toMatchObject({ code: "job_failed", refunded: 10 });
  });

  it("does not return a kept result that no longer reads as its queue's result: the queue's hook tells it", async () => {
    const { userId, holdKey } = await heldJob();
    const hooks = { finishedResult: () => ({ reply: "told by the queue" }) };
    const processor = chargedProcessor(ctx, "chat", async () => ({ reply: "made" }), hooks);
    await expect(processor(fakeJob(chatData(userId, holdKey)))).resolves.toEqual({ reply: "made" });
    await ctx.redis.set(`job-result:chat:chat-${seq}`, JSON.stringify({ reply: 42 }));
    await expect(processor(fakeJob(chatData(userId, holdKey), 0, 3, 2))).resolves.toEqual({ reply: "told by the queue" });
    expect(await coins(userId)).toBe(40);
  });

  it("does not deliver or charge work whose hold was released while it ran", async () => {
    const { userId, holdKey } = await heldJob();
    const processor = chargedProcessor(ctx, "chat", async () => {
      await releaseHold(holdKey, "swept while running", "test");
      return { reply: "too late" };
    });
    await expect(processor(fakeJob(chatData(userId, holdKey)))).rejects.toThrow("refunded");
    expect(await holdState(holdKey)).toBe("released");
    expect(await coins(userId)).toBe(50);
    expect(pushes.filter((p) => p.event === "job:completed")).toEqual([]);
  });
});

describe("providerBackoff", () => {
  const job = { opts: { backoff: { type: "provider", delay: 100 } } } as unknown as Job;

  it("doubles the delay per attempt", () => {
    expect([1, 2, 3].map((n) => providerBackoff(n, "provider", new Error("x"), job))).toEqual([100, 200, 400]);
  });

  it("never retries sooner than the provider's Retry-After", () => {
    const limited = new ProviderError("slow down", { retryable: true, retryAfterMs: 5000 });
    expect(providerBackoff(1, "provider", limited, job)).toBe(5000);
    expect(providerBackoff(8, "provider", limited, job)).toBe(12_800);
  });
});

describe("the chat queue at its deadline: words delivered are paid", () => {
  /** The chat job as if its HTTP request arrived just before the budget ran out: its deadline is 1 ms away. */
  const atDeadline = (userId: string, holdKey: string) =>
    fakeJob({ ...chatData(userId, holdKey), arrivedAt: Date.now() - ctx.config.AI_RETRY_BUDGET_MS + 500 + 1 }, 0, 5);

  it("settles, once, a reply the deadline cut after its words were pushed, and returns what was said", async () => {
    const { userId, holdKey } = await heldJob();
    setChatProvider(cutAtDeadline(["Chapter one. ", "It was a dark "]));
    await expect(chatProcessor(ctx)(atDeadline(userId, holdKey))).resolves.toEqual({ reply: "Chapter one. It was a dark" });
    expect(await holdState(holdKey)).toBe("settled");
    expect(await coins(userId)).toBe(40);
    expect(pushes.map((p) => p.event)).toContain("chat:delta");
    expect(pushes.map((p) => p.event)).not.toContain("job:failed");
  });

  it("refunds a reply the deadline cut before it said anything", async () => {
    const { userId, holdKey } = await heldJob();
    setChatProvider(cutAtDeadline([]));
    await expect(chatProcessor(ctx)(atDeadline(userId, holdKey))).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await holdState(holdKey)).toBe("released");
    expect(await coins(userId)).toBe(50);
    expect(pushes.map((p) => p.event)).not.toContain("chat:delta");
    expect(pushes.find((p) => p.event === "job:failed")!.payload).toMatchObject({ refunded: 10 });
  });
});
