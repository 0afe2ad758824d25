import { describe, expect, it } from "vitest";
import type { AppContext } from "../context";
import { acceptJob, type AcceptJobInput } from "./jobs";

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
