import { describe, expect, it } from "vitest";
import { ProviderError } from "./errors";
import { errorFromResponse, joinUrl, parseRetryAfter } from "./http";

describe("provider HTTP helpers", () => {
  it("joins base URLs with or without a trailing slash, keeping their query", () => {
    expect(joinUrl("https://api.openai.com/v1", "chat/completions")).toBe("https://api.openai.com/v1/chat/completions");
    expect(joinUrl("http://127.0.0.1:11434/v1/", "/chat/completions")).toBe("http://127.0.0.1:11434/v1/chat/completions");
    expect(joinUrl("https://x.openai.azure.com/openai/v1?api-version=preview", "images/edits")).toBe(
      "https://x.openai.azure.com/openai/v1/images/edits?api-version=preview",
    );
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("0.5", now)).toBe(500);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });

  it("maps statuses to retryable or permanent errors with the provider's message", async () => {
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      errorFromResponse("p", new Response(JSON.stringify(body), { status, headers }));
    const limited = await answer(429, { error: { message: "slow down" } }, { "retry-after": "2" });
    expect(limited).toBeInstanceOf(ProviderError);
    expect(limited).toMatchObject({ retryable: true, retryAfterMs: 2000, status: 429 });
    expect(limited.message).toContain("slow down");
    expect(await answer(500, { error: "boom" })).toMatchObject({ retryable: true, status: 500 });
    expect(await answer(408, {})).toMatchObject({ retryable: true });
    expect(await answer(400, { error: { message: "bad prompt" } })).toMatchObject({ retryable: false, status: 400 });
    expect(await answer(401, { message: "no key" })).toMatchObject({ retryable: false, message: "p answered 401: no key" });
  });
});
