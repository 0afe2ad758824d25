/** The OpenAI-compatible chat client against a local peer speaking the real SSE wire format. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAiChatProvider, ProviderError, type ChatRequest } from "../../workers/src/providers/index";
import { OpenAiPeer, peerReply } from "../peers/openai";
import { collect, providerRejection } from "../support/providers";

const peer = new OpenAiPeer("sk-test-key");
const request: ChatRequest = {
  system: "You are a test.",
  history: [
    { role: "user", content: "first" },
    { role: "assistant", content: "first answer" },
  ],
  message: "hello peer",
  language: "en",
  persona: "general",
};

function failure(stream: AsyncIterable<string>): Promise<ProviderError> {
  return providerRejection(collect(stream));
}

describe("OpenAI-compatible chat provider", () => {
  let provider: ReturnType<typeof openAiChatProvider>;

  beforeAll(async () => {
    const url = await peer.start();
    provider = openAiChatProvider({ baseUrl: `${url}/v1`, apiKey: "sk-test-key", model: "gpt-test", timeoutMs: 1500 });
  });
  afterAll(() => peer.stop());

  it("streams the deltas of the SSE reply and sends the conversation with the Bearer key", async () => {
    const chunks = await collect(provider.stream(request));
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join("")).toBe(peerReply("hello peer"));
    const sent = peer.requestsTo(/chat\/completions/u).at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer sk-test-key");
    const body = JSON.parse(sent.body.toString());
    expect(body).toMatchObject({ model: "gpt-test", stream: true });
    expect(body.messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: "first" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "hello peer" },
    ]);
  });

  it("sends the reply's cap as max_tokens; a reply that reaches it ends there", async () => {
    const chunks = await collect(provider.stream({ ...request, maxTokens: 3 }));
    expect(chunks.join("")).toBe(peerReply("hello peer").split(" ").slice(0, 3).join(" ") + " ");
    const body = JSON.parse(
      peer
        .requestsTo(/chat\/completions/u)
        .at(-1)!
        .body.toString(),
    );
    expect(body).toMatchObject({ model: "gpt-test", stream: true, max_tokens: 3 });
  });

  it("keeps a base URL's query string (Azure api-version) and works without a key (Ollama)", async () => {
    const keyless = new OpenAiPeer();
    const url = await keyless.start();
    try {
      const p = openAiChatProvider({ baseUrl: `${url}/v1?api-version=2024-10-21`, model: "llama3", timeoutMs: 1500 });
      expect((await collect(p.stream(request))).join("")).toBe(peerReply("hello peer"));
      const sent = keyless.requests.at(-1)!;
      expect(sent.path).toBe("/v1/chat/completions?api-version=2024-10-21");
      expect(sent.headers.authorization).toBeUndefined();
    } finally {
      await keyless.stop();
    }
  });

  it("429 with Retry-After is retryable and carries the wait", async () => {
    peer.failNext(/chat/u, {
      kind: "status",
      status: 429,
      headers: { "retry-after": "7" },
      body: { error: { message: "Rate limit reached" } },
    });
    const error = await failure(provider.stream(request));
    expect(error).toMatchObject({ retryable: true, status: 429, retryAfterMs: 7000 });
    expect(error.message).toContain("Rate limit reached");
  });

  it("5xx is retryable", async () => {
    peer.failNext(/chat/u, { kind: "status", status: 503 });
    expect(await failure(provider.stream(request))).toMatchObject({ retryable: true, status: 503 });
  });

  it("400 and a wrong key are permanent", async () => {
    peer.failNext(/chat/u, {
      kind: "status",
      status: 400,
      body: { error: { message: "messages: too long", code: "context_length_exceeded" } },
    });
    expect(await failure(provider.stream(request))).toMatchObject({ retryable: false, status: 400 });
    const wrongKey = openAiChatProvider({ baseUrl: `${peer.url}/v1`, apiKey: "sk-wrong", model: "m", timeoutMs: 1500 });
    const error = await failure(wrongKey.stream(request));
    expect(error).toMatchObject({ retryable: false, status: 401 });
    expect(error.message).toContain("Incorrect API key");
  });

  it("a peer that never answers times out as retryable", async () => {
    peer.failNext(/chat/u, { kind: "hang" });
    const started = Date.now();
    const error = await failure(provider.stream(request));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/did not answer within 1500 ms/u);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a stream that stalls mid-way times out as retryable", async () => {
    peer.chatModes.push("stall");
    const error = await failure(provider.stream(request));
    expect(error.retryable).toBe(true);
  });

  it("a stream cut before [DONE] is retryable; a garbage event or an error event is permanent", async () => {
    peer.chatModes.push("cut");
    expect((await failure(provider.stream(request))).retryable).toBe(true);
    peer.chatModes.push("garbage");
    const garbage = await failure(provider.stream(request));
    expect(garbage.retryable).toBe(false);
    expect(garbage.message).toMatch(/malformed/u);
    peer.chatModes.push("stream-error");
    expect((await failure(provider.stream(request))).retryable).toBe(false);
  });

  it("a non-SSE body is a malformed reply, not retried", async () => {
    peer.failNext(/chat/u, { kind: "malformed", body: "<html>proxy error page</html>", contentType: "text/html" });
    const error = await failure(provider.stream(request));
    expect(error.retryable).toBe(false);
  });

  it("a server that ignores stream: true and answers one JSON completion still works", async () => {
    const whole = {
      id: "x",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: "all at once" } }],
    };
    peer.failNext(/chat/u, { kind: "malformed", body: JSON.stringify(whole) });
    expect(await collect(provider.stream(request))).toEqual(["all at once"]);
  });

  it("an unreachable host is retryable", async () => {
    const down = openAiChatProvider({ baseUrl: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 1500 });
    expect((await failure(down.stream(request))).retryable).toBe(true);
  });

  it("the caller's abort is not reported as a provider fault", async () => {
    peer.failNext(/chat/u, { kind: "hang" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("worker shutting down")), 100);
    await expect(collect(provider.stream(request, controller.signal))).rejects.not.toBeInstanceOf(ProviderError);
  });
});
