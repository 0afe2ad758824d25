import { describe, expect, it } from "vitest";
import { limitSmsReply, smsAiRequestSchema, smsSystemPrompt } from "./sms-ai";

describe("limitSmsReply", () => {
  it("keeps a reply that fits and trims its edges", () => {
    expect(limitSmsReply("  Paris is 465 km from Lyon.  ", "en")).toBe("Paris is 465 km from Lyon.");
  });

  it("cuts an English reply to 400 characters at a word boundary", () => {
    const reply = limitSmsReply("word ".repeat(200), "en");
    expect(Array.from(reply).length).toBeLessThanOrEqual(400);
    expect(reply.endsWith("word...")).toBe(true);
  });

  it("cuts an Arabic reply to 210 characters, counting code points", () => {
    const reply = limitSmsReply("مرحبا ".repeat(100), "ar");
    expect(Array.from(reply).length).toBeLessThanOrEqual(210);
    expect(reply.endsWith("...")).toBe(true);
  });

  it("cuts mid-word when the text has no space near the limit", () => {
    const reply = limitSmsReply("x".repeat(1000), "en");
    expect(reply).toBe(`${"x".repeat(397)}...`);
  });
});

describe("smsAiRequestSchema", () => {
  it("keeps the last 10 non-empty history entries and accepts message as content", () => {
    const history = Array.from({ length: 12 }, (_, i) => ({ role: "user", message: `m${i}` }));
    const parsed = smsAiRequestSchema.parse({
      message: "hi",
      conversationHistory: [...history, { role: "assistant", content: " " }],
    });
    expect(parsed.conversationHistory).toHaveLength(10);
    expect(parsed.conversationHistory[9]).toEqual({ role: "user", content: "m11" });
    expect(parsed.language).toBe("en");
  });

  it("tells the model the SMS limit of the language", () => {
    expect(smsSystemPrompt("Be kind.", "ar")).toContain("210");
    expect(smsSystemPrompt("Be kind.", "en")).toContain("400");
  });
});
