import type { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LIMITS, PERSONAS, type ChatJobData } from "@storefront/shared";
import { createLogger, loadConfig, type Pusher, type Storage } from "@storefront/shared/server";
import type { Redis } from "ioredis";
import type { ChatProvider, ChatRequest } from "../providers/chat/index";
import type { WorkerContext } from "../context";
import { ProviderError } from "../providers/errors";
import { cutAtDeadline as slowModel } from "../../../tests/support/providers";
import { runChat, setChatProvider } from "./chat";

const deltas: Record<string, unknown>[] = [];
const asked: ChatRequest[] = [];

/** Yields `pieces` in one turn of the event loop, as the offline provider does. */
function scripted(pieces: string[]): ChatProvider {
  return {
    name: "scripted",
    async *stream(req) {
      asked.push(req);
      yield* pieces;
    },
  };
}

/**
 * Yields its first piece, and the rest once that one was pushed: words that come after a first push
 * and within the interval. No timer decides the order, so a busy machine cannot split the rest.
 */
function firstAlone([first, ...rest]: string[]): ChatProvider {
  return {
    name: "scripted",
    async *stream(req) {
      asked.push(req);
      yield first!;
      while (deltas.length === 0) await endOfTurn();
      yield* rest;
    },
  };
}

/** A slow model that writes `pieces`, then nothing until the deadline cuts it off. */
const cutAtDeadline = (pieces: string[]) => slowModel(pieces, (req) => asked.push(req));

/** The job's data as if its HTTP request arrived just before the budget ran out: its deadline is 1 ms away. */
function atDeadline(ctx: WorkerContext, of: ChatJobData): ChatJobData {
  return { ...of, arrivedAt: Date.now() - ctx.config.AI_RETRY_BUDGET_MS + 500 + 1 };
}

let ctx: WorkerContext;

beforeAll(() => {
  const config = loadConfig({ MONGODB_URI: inject("mongoUri"), REDIS_URL: inject("redisUrl"), NODE_ENV: "test" });
  const pusher = {
    toUser: (_u: string, _e: string, payload: Record<string, unknown>) => deltas.push(payload),
  } as unknown as Pusher;
  ctx = { config, pusher, redis: {} as Redis, storage: {} as Storage, log: createLogger("chat-test", "silent") };
});
afterAll(() => {
  deltas.length = 0;
});

const data: ChatJobData = {
  userId: "a".repeat(24),
  holdKey: "job:chat:x",
  message: "what is a fever?",
  persona: "doctor",
  language: "en",
  conversationId: "conv_1",
  history: [{ role: "user", content: "hello" }],
};
const job = { id: "chat-1" } as Job;

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("runChat", () => {
  it("streams the deltas to the user's room (the first at once, the rest coalesced) and returns the reply cleaned of markdown", async () => {
    deltas.length = 0;
    // The first words go out alone, the rest (within the interval after them) in one push at the end.
    setChatProvider(firstAlone(["**Fever** is ", "a raised ", "body temperature."]));
    const result = await runChat(ctx, data, job);
    expect(result).toEqual({ reply: "Fever is a raised body temperature." });
    await endOfTurn();
    expect(deltas).toEqual([
      { jobId: "chat-1", conversationId: "conv_1", delta: "**Fever** is " },
      { jobId: "chat-1", conversationId: "conv_1", delta: "a raised body temperature." },
    ]);
    const doctor = PERSONAS.find((p) => p.id === "doctor")!;
    expect(asked.at(-1)).toMatchObject({
      system: doctor.systemPrompt,
      persona: "doctor",
      history: data.history,
      language: "en",
      maxTokens: LIMITS.chatReplyMaxTokens,
    });
    expect(asked.at(-1)!.system).toContain("not a diagnosis");
  });

  it("pushes a reply written all at once as one delta", async () => {
    deltas.length = 0;
    setChatProvider(scripted(["Rest, ", "fluids ", "and a thermometer."]));
    expect(await runChat(ctx, data, job)).toEqual({ reply: "Rest, fluids and a thermometer." });
    // Not yet: the last words wait for the end of the turn, after the caller's next write is sent.
    expect(deltas).toEqual([]);
    await endOfTurn();
    expect(deltas).toEqual([{ jobId: "chat-1", conversationId: "conv_1", delta: "Rest, fluids and a thermometer." }]);
  });

  it("fails a reply that is empty once cleaned", async () => {
    setChatProvider(scripted(["**", "**"]));
    await expect(runChat(ctx, data, job)).rejects.toThrow("empty reply");
  });

  it("returns a reply the deadline cut after words were pushed: the words delivered are paid", async () => {
    await endOfTurn();
    deltas.length = 0;
    setChatProvider(cutAtDeadline(["Once upon a **time** ", "there was "]));
    const result = await runChat(ctx, atDeadline(ctx, data), job);
    expect(result).toEqual({ reply: "Once upon a time there was" });
    await endOfTurn();
    expect(deltas.map((d) => d.delta).join("")).toBe("Once upon a **time** there was ");
  });

  it("fails (for a refund) a reply the deadline cut before any word was pushed", async () => {
    await endOfTurn();
    deltas.length = 0;
    setChatProvider(cutAtDeadline([]));
    const failure = await runChat(ctx, atDeadline(ctx, data), job).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).message).toContain("did not answer within");
    await endOfTurn();
    expect(deltas).toEqual([]);
  });

  it("pushes no deltas for the SMS AI screen, asks for a short reply and returns it limited to an SMS", async () => {
    await endOfTurn();
    deltas.length = 0;
    const long = "word ".repeat(200);
    setChatProvider(scripted([long.slice(0, 500), long.slice(500)]));
    const result = await runChat(ctx, { ...data, channel: "sms", persona: "general" }, job);
    expect(result.reply.length).toBeLessThanOrEqual(LIMITS.smsCharsEnglish);
    expect(asked.at(-1)).toMatchObject({ maxTokens: LIMITS.smsReplyMaxTokens });
    await endOfTurn();
    expect(deltas).toEqual([]);
  });

  it("fails an SMS AI reply the deadline cut: its screen was shown nothing", async () => {
    await endOfTurn();
    deltas.length = 0;
    setChatProvider(cutAtDeadline(["Some words "]));
    await expect(runChat(ctx, atDeadline(ctx, { ...data, channel: "sms", persona: "general" }), job)).rejects.toThrow(
      "did not answer within",
    );
    await endOfTurn();
    expect(deltas).toEqual([]);
  });
});
