import { describe, expect, it } from "vitest";
import { localReply } from "@storefront/shared/reply-engine";
import { offlineChatProvider, wordChunks } from "./offline";

describe("offline chat provider", () => {
  it("streams the local reply in word chunks that join back to it", async () => {
    const now = new Date("2026-01-01T10:00:00Z");
    const provider = offlineChatProvider({ now: () => now });
    const req = { system: "s", history: [], message: "hello there", language: "en" as const, persona: "general" as const };
    const chunks: string[] = [];
    for await (const chunk of provider.stream(req)) chunks.push(chunk);
    const expected = await localReply({ message: req.message, language: "en", persona: "general", history: [], now });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe(expected);
  });

  it("stops when the signal aborts", async () => {
    const provider = offlineChatProvider();
    const controller = new AbortController();
    controller.abort();
    const req = { system: "s", history: [], message: "hi", language: "en" as const, persona: "general" as const };
    await expect(async () => {
      for await (const _ of provider.stream(req, controller.signal)) void _;
    }).rejects.toThrow();
  });

  it("keeps every character when chunking", () => {
    expect(wordChunks("a  b\nc ")).toEqual(["a  ", "b\n", "c "]);
    expect(wordChunks("")).toEqual([]);
  });
});
