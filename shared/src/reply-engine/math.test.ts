import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatNumber } from "./format";
import { localReply } from "./engine";
import { evaluate, MathError, type MathErrorReason } from "./math";

function reasonOf(expression: string): MathErrorReason | "no error" {
  try {
    evaluate(expression);
    return "no error";
  } catch (error) {
    if (error instanceof MathError) return error.reason;
    throw error;
  }
}

describe("evaluate (recursive-descent parser)", () => {
  it("respects precedence and associativity", () => {
    expect(evaluate("2+3*4")).toBe(14);
    expect(evaluate("(2+3)*4")).toBe(20);
    expect(evaluate("10-4-3")).toBe(3);
    expect(evaluate("100/10/5")).toBe(2);
    expect(evaluate("2^3^2")).toBe(512);
    expect(evaluate("2*3^2")).toBe(18);
    expect(evaluate("2**10")).toBe(1024);
  });

  it("handles unary minus below exponentiation and inside products", () => {
    expect(evaluate("-2^2")).toBe(-4);
    expect(evaluate("(-2)^2")).toBe(4);
    expect(evaluate("2*-3")).toBe(-6);
    expect(evaluate("--3")).toBe(3);
    expect(evaluate("2^-1")).toBe(0.5);
    expect(evaluate("-(1+2)*4")).toBe(-12);
  });

  it("reads decimals, thousands separators, percent, roots and implicit products", () => {
    expect(evaluate("1.5*4")).toBe(6);
    expect(evaluate(".5+.5")).toBe(1);
    expect(evaluate("1,000 + 1")).toBe(1001);
    expect(evaluate("15% of 200")).toBe(30);
    expect(evaluate("50%")).toBe(0.5);
    expect(evaluate("sqrt 16")).toBe(4);
    expect(evaluate("√(9) + 1")).toBe(4);
    expect(evaluate("2(3+4)")).toBe(14);
    expect(evaluate("3 x 4")).toBe(12);
    expect(evaluate("6 × 7 ÷ 3")).toBe(14);
    expect(evaluate("1e5 + 1")).toBe(100001);
    expect(evaluate("2.5e-3 * 2")).toBe(0.005);
  });

  it("adds and subtracts a bare percentage relative to the left side, like a calculator", () => {
    expect(evaluate("200 + 10%")).toBeCloseTo(220, 9);
    expect(evaluate("100 - 20%")).toBeCloseTo(80, 9);
    expect(evaluate("100 + -5%")).toBeCloseTo(95, 9);
    expect(evaluate("100 - (20%)")).toBeCloseTo(99.8, 9);
    expect(evaluate("100 * 20%")).toBeCloseTo(20, 9);
    expect(evaluate("100 - 20% of 50")).toBeCloseTo(90, 9);
  });

  it("reads English and Arabic operator words and Arabic digits", () => {
    expect(evaluate("5 plus 3 times 2")).toBe(11);
    expect(evaluate("2 to the power of 10")).toBe(1024);
    expect(evaluate("20 divided by 4 minus 1")).toBe(4);
    expect(evaluate("٥ زائد ٣")).toBe(8);
    expect(evaluate("10 ناقص 4")).toBe(6);
    expect(evaluate("20 بالمئة من 50")).toBe(10);
    expect(evaluate("١٫٥ × ٤")).toBe(6);
  });

  it("reports division by zero, syntax errors, overflow and non-real results as MathError", () => {
    expect(reasonOf("1/0")).toBe("division-by-zero");
    expect(reasonOf("1/(2-2)")).toBe("division-by-zero");
    expect(reasonOf("2+")).toBe("syntax");
    expect(reasonOf("(1+2")).toBe("syntax");
    expect(reasonOf("1+2)")).toBe("syntax");
    expect(reasonOf("")).toBe("syntax");
    expect(reasonOf("hello")).toBe("syntax");
    expect(reasonOf("sqrt(-4)")).toBe("not-real");
    expect(reasonOf("(-8)^(1/3)")).toBe("not-real");
    expect(reasonOf("10^400")).toBe("overflow");
  });

  it("refuses absurd nesting instead of overflowing the stack", () => {
    expect(reasonOf(`${"(".repeat(5000)}1${")".repeat(5000)}`)).toBe("syntax");
    expect(reasonOf(`${"-".repeat(5000)}1`)).toBe("syntax");
    expect(evaluate(`${"(".repeat(20)}1${")".repeat(20)}`)).toBe(1);
  });

  it("computes a + b * c exactly for random integers", () => {
    const int = fc.integer({ min: -1_000_000, max: 1_000_000 });
    fc.assert(fc.property(int, int, int, (a, b, c) => evaluate(`${a}+${b}*${c}`) === a + b * c));
  });

  it("is left-associative for subtraction and honours parentheses", () => {
    const int = fc.integer({ min: -10_000, max: 10_000 });
    fc.assert(
      fc.property(int, int, int, (a, b, c) => {
        expect(evaluate(`${a}-${b}-${c}`)).toBe(a - b - c);
        expect(evaluate(`${a}*(${b}+${c})`)).toBe(a * (b + c));
        expect(evaluate(`(${a})-(${b})*(${c})`)).toBe(a - b * c);
      }),
    );
  });

  it("only ever returns a finite number or throws MathError on random input", () => {
    const mathish = fc.string({ unit: fc.constantFrom(..."0123456789+-*/^()%. x×÷√"), maxLength: 40 });
    const anything = fc.string({ unit: "binary", maxLength: 60 });
    fc.assert(
      fc.property(fc.oneof(mathish, anything), (input) => {
        try {
          expect(Number.isFinite(evaluate(input))).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(MathError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("arithmetic answers", () => {
  it("answers with the expression and its value", () => {
    expect(localReply({ message: "what is 2+3*4?", language: "en" })).toBe("2 + 3 × 4 = 14");
    expect(localReply({ message: "(2+3)*4", language: "en" })).toBe("(2 + 3) × 4 = 20");
    expect(localReply({ message: "what's 15% of 200", language: "en" })).toBe("15% of 200 = 30");
    expect(localReply({ message: "0.1 + 0.2", language: "en" })).toBe("0.1 + 0.2 = 0.3");
    expect(localReply({ message: "1/3", language: "en" })).toBe("1 ÷ 3 = 0.333333");
    expect(localReply({ message: "hello, what is 2+2", language: "en" })).toBe("2 + 2 = 4");
    expect(localReply({ message: "2 + 2 = ?", language: "en" })).toBe("2 + 2 = 4");
  });

  it("does not echo very long expressions", () => {
    expect(localReply({ message: `${"1+".repeat(99)}1`, language: "en" })).toBe("The result is 100.");
    expect(localReply({ message: `${"1+".repeat(99)}1`, language: "ar" })).toBe("الناتج: 100");
  });

  it("answers in Arabic, with Arabic digits understood", () => {
    const reply = localReply({ message: "كم ٥ زائد ٣؟", language: "ar" });
    expect(reply).toBe("الناتج: 5 + 3 = 8");
    expect(localReply({ message: "احسب 7 × 8", language: "en" })).toBe("الناتج: 7 × 8 = 56");
  });

  it("answers division by zero politely in both languages", () => {
    expect(localReply({ message: "10 / 0", language: "en" })).toMatch(/can't divide by zero/u);
    expect(localReply({ message: "احسب 10 / 0", language: "ar" })).toMatch(/لا يمكن القسمة على صفر/u);
  });

  it("leaves numbers inside prose alone", () => {
    expect(localReply({ message: "call me at 555-1234 later", language: "en" })).toMatch(/^I can answer questions/u);
  });

  it("answers random a + b * c questions with the right value", () => {
    const int = fc.integer({ min: -100_000, max: 100_000 });
    fc.assert(
      fc.property(int, int, int, (a, b, c) => {
        const reply = localReply({ message: `what is ${a}+${b}*${c}?`, language: "en" });
        expect(reply.endsWith(`= ${formatNumber(a + b * c, 6)}`)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
