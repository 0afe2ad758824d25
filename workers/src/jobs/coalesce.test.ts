import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { coalesce } from "./coalesce";

/** A coalescer at 40 ms on the fake clock, and what it has sent. */
function collected() {
  const sent: string[] = [];
  const c = coalesce(
    (t) => sent.push(t),
    40,
    () => Date.now(),
  );
  return { sent, c };
}

describe("coalesce", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends the first fragment at the end of the turn and the next ones together after the interval", () => {
    const { sent, c } = collected();
    c.push("Hello");
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(sent).toEqual(["Hello"]);
    c.push(" there");
    c.push(",");
    c.push(" friend");
    expect(sent).toEqual(["Hello"]);
    vi.advanceTimersByTime(40);
    expect(sent).toEqual(["Hello", " there, friend"]);
  });

  it("sends a reply that arrives within one turn as one push", () => {
    const { sent, c } = collected();
    for (const word of ["A", " whole", " reply"]) c.push(word);
    c.end();
    expect(sent).toEqual(["A whole reply"]);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual(["A whole reply"]);
  });

  it("sends at once again after a quiet spell, and end() flushes the rest so the parts make the whole", () => {
    const { sent, c } = collected();
    const words = ["One", " two", " three", " four", " five"];
    c.push(words[0]!);
    vi.advanceTimersByTime(100);
    c.push(words[1]!);
    vi.advanceTimersByTime(0);
    expect(sent).toEqual(["One", " two"]);
    c.push(words[2]!);
    c.push(words[3]!);
    c.push(words[4]!);
    c.end();
    expect(sent.join("")).toBe(words.join(""));
    expect(sent).toHaveLength(3);
    vi.advanceTimersByTime(100);
    expect(sent).toHaveLength(3);
  });

  it("publishes far fewer times than there are words", () => {
    const { sent, c } = collected();
    for (let i = 0; i < 200; i++) {
      c.push(`w${i} `);
      vi.advanceTimersByTime(2);
    }
    c.end();
    expect(sent.join("")).toBe(Array.from({ length: 200 }, (_, i) => `w${i} `).join(""));
    expect(sent.length).toBeLessThanOrEqual(12);
  });

  it("cancel() drops what is held and sends nothing later", () => {
    const { sent, c } = collected();
    c.push("a");
    vi.advanceTimersByTime(0);
    c.push("b");
    c.cancel();
    vi.advanceTimersByTime(100);
    expect(sent).toEqual(["a"]);
  });
});
