/**
 * Text chat, Doctor and SMS AI on a stack of their own whose chat workers talk to a local
 * OpenAI-compatible peer: what the provider is sent for a price (the context is capped), and what
 * a subscriber is told when the provider keeps failing (a code and a neutral text within 10 s,
 * with the provider's own text kept for the logs and the admin's failed-jobs view).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONTEXT_LIMITS, LIMITS, MESSAGES } from "@storefront/shared";
import { Admin, LedgerEntry } from "@storefront/shared/server";
import { hashPassword } from "../../api/src/services/passwords";
import { startStack, type Stack } from "../../scripts/lib/stack";
import { OpenAiPeer } from "../peers/openai";
import { Client, walletCoins } from "../support/client";
import { userWithCoins } from "../support/realtime";

const openai = new OpenAiPeer("sk-chat-stack");
let stack: Stack;
let dataDir: string;
let baseUrl: string;

beforeAll(async () => {
  const openaiUrl = await openai.start();
  dataDir = mkdtempSync(path.join(tmpdir(), "storefront-chat-providers-"));
  stack = await startStack({
    dataDir,
    persist: false,
    logDir: path.resolve("test-artifacts/logs/providers-chat-stack"),
    workers: ["chat"],
    env: {
      NODE_ENV: "test",
      SESSION_SECRET: "test-session-secret-0123456789",
      LOG_LEVEL: "info",
      AI_PROVIDER: "openai",
      OPENAI_BASE_URL: `${openaiUrl}/v1`,
      OPENAI_API_KEY: "sk-chat-stack",
      AI_TIMEOUT_MS: "3000",
      // Without the retry budget five tries would back off 2 + 4 + 8 + 16 s: 30 s for the subscriber.
      JOB_ATTEMPTS: "5",
      JOB_BACKOFF_MS: "2000",
      JOB_WAIT_TIMEOUT_MS: "60000",
    },
  });
  baseUrl = stack.apiUrls[0]!;
  await mongoose.connect(stack.mongoUri);
}, 120_000);

afterAll(async () => {
  await mongoose.disconnect();
  await stack?.stop();
  await openai.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

afterEach(() => openai.clearFaults());

interface SentMessage {
  role: string;
  content: string;
}

/** The messages of the last chat completion the provider received. */
function lastSent(): SentMessage[] {
  const sent = openai.requestsTo(/chat\/completions/u).at(-1)!;
  return (JSON.parse(sent.body.toString()) as { messages: SentMessage[] }).messages;
}

const chars = (messages: SentMessage[]) => messages.reduce((sum, m) => sum + m.content.length, 0);

describe("what one coin buys: the context sent to the provider is capped", () => {
  const long = (i: number) => `${String(i).padStart(4, "0")}${"x".repeat(16_000 - 4)}`;

  it("a 1-character text chat with 20 entries of 16,000 characters costs 1 coin and sends at most 6,000 characters of context", async () => {
    const { client } = await userWithCoins(baseUrl, 10);
    const history = Array.from({ length: 20 }, (_, i) => ({ type: i % 2 ? "ai" : "user", content: long(i) }));
    const res = await client.post("/textai/chat.php", { message: "?", conversationHistory: history });
    expect(res.status).toBe(200);
    expect(res.body.tokensUsed).toBe(1);
    expect(await walletCoins(client)).toBe(9);
    const messages = lastSent();
    const context = messages.slice(1, -1);
    expect(messages.at(-1)).toEqual({ role: "user", content: "?" });
    expect(chars(context)).toBeLessThanOrEqual(CONTEXT_LIMITS.chat.chars);
    // The newest entry, cut to the budget: the context is the end of the thread, not its start.
    expect(context).toEqual([{ role: "assistant", content: long(19).slice(-CONTEXT_LIMITS.chat.chars) }]);
  });

  it("the Doctor keeps the newest turns whole while they fit", async () => {
    const { client } = await userWithCoins(baseUrl, 10);
    const history = Array.from({ length: 30 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `turn ${i} `.repeat(50),
    }));
    const res = await client.post("/textai/chat.php", { message: "ok", avatarType: "doctor", conversationHistory: history });
    expect(res.status).toBe(200);
    expect(res.body.tokensUsed).toBe(1);
    const context = lastSent().slice(1, -1);
    expect(context.length).toBeLessThanOrEqual(CONTEXT_LIMITS.chat.turns);
    expect(chars(context)).toBeLessThanOrEqual(CONTEXT_LIMITS.chat.chars);
    expect(context.at(-1)).toEqual({ role: "assistant", content: `turn 29 `.repeat(50) });
  });

  it("SMS AI sends at most 10 entries and 2,000 characters of context for its 1-segment price", async () => {
    const { client } = await userWithCoins(baseUrl, 10);
    const history = Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `${i}`.repeat(1600) }));
    const res = await client.post("/sms/ai-response.php", { message: "hi", conversationHistory: history });
    expect(res.status).toBe(200);
    expect(res.body.tokensUsed).toBe(1);
    const context = lastSent().slice(1, -1);
    expect(chars(context)).toBe(CONTEXT_LIMITS.sms.chars);
    expect(context.at(-1)).toEqual({ role: "assistant", content: "9".repeat(1600) });
  });

  it("the provider is asked for at most 800 output tokens for a chat reply and 200 for an SMS AI reply", async () => {
    const { client } = await userWithCoins(baseUrl, 10);
    const maxTokens = () =>
      (
        JSON.parse(
          openai
            .requestsTo(/chat\/completions/u)
            .at(-1)!
            .body.toString(),
        ) as { max_tokens?: number }
      ).max_tokens;
    expect((await client.post("/textai/chat.php", { message: "write a 6000-word story" })).status).toBe(200);
    expect(maxTokens()).toBe(LIMITS.chatReplyMaxTokens);
    expect((await client.post("/sms/ai-response.php", { message: "write a 6000-word story" })).status).toBe(200);
    expect(maxTokens()).toBe(LIMITS.smsReplyMaxTokens);
  });
});

describe("subscriber-facing errors when the provider fails", () => {
  const litellm =
    "litellm.RateLimitError: RateLimitError: OpenAIException - Rate limit reached for gpt-4o-mini in organization org-abc on tokens per min";

  async function refunds(userId: string): Promise<number> {
    return LedgerEntry.countDocuments({ userId, kind: "release" });
  }

  async function adminClient(): Promise<Client> {
    const username = `ops-${Date.now()}`;
    await Admin.create({ username, passwordHash: await hashPassword("ops-password-123"), role: "super_admin" });
    const admin = new Client(baseUrl);
    expect((await admin.post("/admin/login.php", { username, password: "ops-password-123" })).status).toBe(200);
    return admin;
  }

  /** The job id is a hash, which may happen to contain "429": only the words meant for a person are checked. */
  function expectNoUpstreamText(body: unknown): void {
    const { jobId: _jobId, ...words } = body as Record<string, unknown>;
    expect(JSON.stringify(words)).not.toMatch(/litellm|openai|429|fetch failed|RateLimit|could not be reached/iu);
  }

  it("a provider that keeps answering 429 gets a neutral ai_busy answer within 10 s, refunded, with the detail for the admin", async () => {
    const { client, id } = await userWithCoins(baseUrl, 10);
    for (let i = 0; i < 5; i++) openai.failNext(/chat/u, { kind: "status", status: 429, body: { error: { message: litellm } } });
    const started = Date.now();
    const res = await client.post("/textai/chat.php", { message: "are you there" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res.body).toMatchObject({ success: false, code: "ai_busy", error: MESSAGES.aiBusy, refunded: true });
    expectNoUpstreamText(res.body);
    expect(await walletCoins(client)).toBe(10);
    expect(await refunds(id)).toBe(1);

    const overview = await (await adminClient()).get("/admin/queues.php");
    expect(overview.status).toBe(200);
    const failed = JSON.stringify(overview.body);
    expect(failed).toContain(res.body.jobId);
    expect(failed).toContain("litellm.RateLimitError");
  });

  it("a provider that answers 429 after 1.5 s each time: the caller has its answer within 10 s of its request", async () => {
    const { client, id } = await userWithCoins(baseUrl, 10);
    const before = openai.requestsTo(/chat\/completions/u).length;
    // Tries at 0, 3.5 (1.5 s answer + 2 s backoff) and 9 s (+ 4 s backoff) would answer after 10.5 s: the third is not started.
    for (let i = 0; i < 5; i++) {
      openai.failNext(/chat/u, { kind: "status", status: 429, afterMs: 1500, body: { error: { message: litellm } } });
    }
    const started = Date.now();
    const res = await client.post("/textai/chat.php", { message: "still there?" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res.body).toMatchObject({ success: false, code: "ai_busy", error: MESSAGES.aiBusy, refunded: true });
    expect(openai.requestsTo(/chat\/completions/u).length - before).toBe(2);
    expect(await walletCoins(client)).toBe(10);
    expect(await refunds(id)).toBe(1);
    openai.clearFaults();
  });

  it("a Retry-After longer than the budget ends the call at once, after one try", async () => {
    const { client, id } = await userWithCoins(baseUrl, 10);
    const before = openai.requestsTo(/chat\/completions/u).length;
    openai.failNext(/chat/u, {
      kind: "status",
      status: 429,
      headers: { "retry-after": "60" },
      body: { error: { message: litellm } },
    });
    const started = Date.now();
    const res = await client.post("/sms/ai-response.php", { message: "hello" });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.body).toMatchObject({ code: "ai_busy", error: MESSAGES.aiBusy });
    expect(openai.requestsTo(/chat\/completions/u).length - before).toBe(1);
    expect(await refunds(id)).toBe(1);
  });

  it("a provider that cannot be reached gets a neutral ai_unavailable answer within 10 s, refunded", async () => {
    const { client, id } = await userWithCoins(baseUrl, 10);
    for (let i = 0; i < 5; i++) openai.failNext(/chat/u, { kind: "close" });
    const started = Date.now();
    const res = await client.post("/textai/chat.php", { message: "doctor?", avatarType: "doctor" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res.body).toMatchObject({ success: false, code: "ai_unavailable", error: MESSAGES.aiUnavailable });
    expectNoUpstreamText(res.body);
    expect(await walletCoins(client)).toBe(10);
    expect(await refunds(id)).toBe(1);
  });
});
