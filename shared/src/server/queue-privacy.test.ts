import { describe, expect, it } from "vitest";
import { monitoredJob, scrubbedReason } from "./queue-privacy";

describe("scrubbedReason", () => {
  const payload = {
    userId: "65f0c0ffee0000000000beef",
    message: "I have chest pain since this morning. Should I go to the hospital now?",
    history: [{ type: "user", content: "my number is +49 155 1234 5678" }],
  };

  it("keeps the provider's error and hides the job's texts, quoted whole or in part, and phone numbers", () => {
    expect(scrubbedReason("[ai_refused] openai answered 400: content policy", payload)).toBe(
      "[ai_refused] openai answered 400: content policy",
    );
    expect(scrubbedReason(`[ai_refused] flagged input: "${payload.message}"`, payload)).toBe(
      '[ai_refused] flagged input: "[hidden]"',
    );
    expect(scrubbedReason("[ai_refused] flagged: Should I go to the hospital now", payload)).toBe(
      "[ai_refused] flagged: [hidden]",
    );
    expect(scrubbedReason("user 65f0c0ffee0000000000beef over quota", payload)).toBe("user [hidden] over quota");
    expect(scrubbedReason("sms to +4915512345678 failed", {})).toBe("sms to [hidden] failed");
  });

  it("shows a job as its payload's size and failure code only", () => {
    const shown = monitoredJob({ data: payload, returnvalue: { reply: "Go now." }, failedReason: "[ai_busy] try later" });
    expect(shown).toEqual({
      data: { hidden: true, bytes: Buffer.byteLength(JSON.stringify(payload)) },
      returnValue: { hidden: true, bytes: Buffer.byteLength(JSON.stringify({ reply: "Go now." })) },
      failedReason: "[ai_busy] try later",
      failureCode: "ai_busy",
    });
  });
});
