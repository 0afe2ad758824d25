/**
 * Arithmetic by a recursive-descent parser (never eval): + - * / ^, parentheses,
 * decimals, unary minus, "%" and "x% of y", square roots, English and Arabic operator words.
 */
import type { Language } from "../constants";
import { formatNumber, say } from "./format";
import { cues, hasPhrase, normalizeText } from "./text";
import type { Skill } from "./types";

type Operator = "+" | "-" | "*" | "/" | "^" | "%" | "(" | ")" | "of" | "sqrt";
type MathToken =
  | { kind: "number"; value: number; text: string }
  | { kind: "op"; op: Operator }
  | { kind: "break"; word: boolean };

export type MathErrorReason = "syntax" | "division-by-zero" | "overflow" | "not-real";

/** Why an expression has no answer. */
export class MathError extends Error {
  constructor(readonly reason: MathErrorReason) {
    super(reason);
    this.name = "MathError";
  }
}

const NOT_LETTER_BEFORE = "(?<!\\p{L})";
const NOT_LETTER_AFTER = "(?!\\p{L})";

/** Multi-word operator phrases, rewritten to symbols before tokenising. */
const PHRASES: readonly [string, string][] = [
  ["to the power of", "^"],
  ["raised to", "^"],
  ["multiplied by", "*"],
  ["divided by", "/"],
  ["percent of", "% of"],
  ["per cent of", "% of"],
  ["percent", "%"],
  ["square root of", "sqrt"],
  ["square root", "sqrt"],
  ["squared", "^2"],
  ["cubed", "^3"],
  ["مضروب في", "*"],
  ["مضروبا في", "*"],
  ["مقسوم علي", "/"],
  ["مقسوما علي", "/"],
  ["بالمئه من", "% of"],
  ["بالمائه من", "% of"],
  ["في المئه من", "% of"],
  ["في المائه من", "% of"],
  ["بالمئه", "%"],
  ["بالمائه", "%"],
  ["في المئه", "%"],
  ["في المائه", "%"],
  ["الجذر التربيعي ل", "sqrt"],
  ["الجذر التربيعي", "sqrt"],
  ["جذر", "sqrt"],
  ["تربيع", "^2"],
  ["اس", "^"],
];
const PHRASE_PATTERNS = PHRASES.map(([phrase, symbol]) => [normalizeText(phrase), symbol] as const).map(
  ([words, symbol]) =>
    [new RegExp(`${NOT_LETTER_BEFORE}${words.replace(/ /gu, "\\s+")}${NOT_LETTER_AFTER}`, "gu"), ` ${symbol} `] as const,
);

const WORD_OPERATOR_LIST: Record<string, Operator> = {
  plus: "+",
  minus: "-",
  times: "*",
  over: "/",
  of: "of",
  sqrt: "sqrt",
  زائد: "+",
  ناقص: "-",
  ضرب: "*",
  في: "*",
  علي: "/",
  تقسيم: "/",
  من: "of",
};

/** Keyed by normalised spelling, the form tokenizeMath sees ("زائد" → "زايد"). */
const WORD_OPERATORS: Record<string, Operator> = Object.fromEntries(
  Object.entries(WORD_OPERATOR_LIST).map(([word, op]) => [normalizeText(word), op]),
);

const SYMBOLS: Record<string, Operator> = {
  "+": "+",
  "-": "-",
  "*": "*",
  "×": "*",
  "·": "*",
  "/": "/",
  "÷": "/",
  "^": "^",
  "%": "%",
  "(": "(",
  ")": ")",
  "√": "sqrt",
};

/** Tokens of (normalised) text; words that are not operators become breaks between expressions. */
function tokenizeMath(text: string): MathToken[] {
  let source = text;
  for (const [pattern, symbol] of PHRASE_PATTERNS) source = source.replace(pattern, symbol);
  const tokens: MathToken[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const space = /^\s+/u.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const number = /^(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?:\d+(?:\.\d+)?|\.\d+)(?:e[+-]?\d+)?)/u.exec(rest);
    if (number) {
      tokens.push({ kind: "number", value: Number(number[0].replace(/,/gu, "")), text: number[0] });
      i += number[0].length;
      continue;
    }
    if (rest.startsWith("**")) {
      tokens.push({ kind: "op", op: "^" });
      i += 2;
      continue;
    }
    const symbol = SYMBOLS[rest[0] ?? ""];
    if (symbol) {
      tokens.push({ kind: "op", op: symbol });
      i += 1;
      continue;
    }
    const word = /^\p{L}+/u.exec(rest)?.[0];
    if (word) {
      const prev = tokens.at(-1);
      const afterValue = prev?.kind === "number" || (prev?.kind === "op" && prev.op === ")");
      // "3 x 4": x multiplies only between values.
      const op = word === "x" && afterValue ? "*" : WORD_OPERATORS[word];
      tokens.push(op ? { kind: "op", op } : { kind: "break", word: true });
      i += word.length;
      continue;
    }
    tokens.push({ kind: "break", word: false });
    i += 1;
  }
  return tokens;
}

const MAX_DEPTH = 100;

/** Recursive-descent evaluation of one token run; throws MathError. */
class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: MathToken[]) {}

  parseAll(): number {
    if (this.tokens.length === 0) throw new MathError("syntax");
    const value = this.expression();
    if (this.index < this.tokens.length) throw new MathError("syntax");
    if (Number.isNaN(value)) throw new MathError("not-real");
    if (!Number.isFinite(value)) throw new MathError("overflow");
    return value;
  }

  private peekOp(): Operator | undefined {
    const token = this.tokens[this.index];
    return token?.kind === "op" ? token.op : undefined;
  }

  private enter(): void {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) throw new MathError("syntax");
  }

  // expression := term (("+" | "-") term)*
  // A bare percentage after + or - is relative to the left side, as on a calculator:
  // "200 + 10%" = 220, "100 - 20%" = 80.
  private expression(): number {
    this.enter();
    let value = this.term();
    for (let op = this.peekOp(); op === "+" || op === "-"; op = this.peekOp()) {
      this.index += 1;
      const start = this.index;
      const right = this.term();
      const delta = this.isBarePercent(start) ? value * right : right;
      value = op === "+" ? value + delta : value - delta;
    }
    this.depth -= 1;
    return value;
  }

  /** True when the tokens from `start` to here are one number with a trailing "%" ("20%", "-5%"). */
  private isBarePercent(start: number): boolean {
    const consumed = this.tokens.slice(start, this.index);
    const last = consumed.at(-1);
    const numbers = consumed.filter((t) => t.kind === "number").length;
    const signsOnly = consumed.slice(0, -2).every((t) => t.kind === "op" && (t.op === "-" || t.op === "+"));
    return last?.kind === "op" && last.op === "%" && numbers === 1 && consumed.at(-2)?.kind === "number" && signsOnly;
  }

  // term := unary (("*" | "/") unary | implicit "(" or sqrt)*
  private term(): number {
    let value = this.unary();
    for (let op = this.peekOp(); op === "*" || op === "/" || op === "(" || op === "sqrt"; op = this.peekOp()) {
      if (op === "*" || op === "/") this.index += 1;
      const right = this.unary();
      if (op === "/") {
        if (right === 0) throw new MathError("division-by-zero");
        value /= right;
      } else {
        value *= right;
      }
    }
    return value;
  }

  // unary := ("-" | "+") unary | power
  private unary(): number {
    this.enter();
    const op = this.peekOp();
    let value: number;
    if (op === "-" || op === "+") {
      this.index += 1;
      const operand = this.unary();
      value = op === "-" ? -operand : operand;
    } else {
      value = this.power();
    }
    this.depth -= 1;
    return value;
  }

  // power := postfix ("^" unary)?   (right-associative; -2^2 = -4)
  private power(): number {
    const base = this.postfix();
    if (this.peekOp() !== "^") return base;
    this.index += 1;
    return base ** this.unary();
  }

  // postfix := primary ("%" ("of" unary)?)*
  private postfix(): number {
    let value = this.primary();
    while (this.peekOp() === "%") {
      this.index += 1;
      value /= 100;
      if (this.peekOp() === "of") {
        this.index += 1;
        value *= this.unary();
      }
    }
    return value;
  }

  // primary := number | "(" expression ")" | "sqrt" unary
  private primary(): number {
    const token = this.tokens[this.index];
    if (token?.kind === "number") {
      this.index += 1;
      return token.value;
    }
    const op = this.peekOp();
    if (op === "(") {
      this.index += 1;
      const value = this.expression();
      if (this.peekOp() !== ")") throw new MathError("syntax");
      this.index += 1;
      return value;
    }
    if (op === "sqrt") {
      this.index += 1;
      const operand = this.unary();
      if (operand < 0) throw new MathError("not-real");
      return Math.sqrt(operand);
    }
    throw new MathError("syntax");
  }
}

/** The value of an arithmetic expression ("2 + 3 * 4", "15% of 200"); throws MathError. */
export function evaluate(expression: string): number {
  const tokens = tokenizeMath(normalizeText(expression));
  if (tokens.some((t) => t.kind === "break")) throw new MathError("syntax");
  return new Parser(tokens).parseAll();
}

function isBinaryPosition(prev: MathToken | undefined): boolean {
  return prev?.kind === "number" || (prev?.kind === "op" && (prev.op === ")" || prev.op === "%"));
}

/** The expression written back for the answer (× and ÷, so markdown cleaning cannot eat "*"). */
function render(tokens: MathToken[], language: Language): string {
  let out = "";
  tokens.forEach((token, i) => {
    if (token.kind === "number") out += token.text;
    else if (token.kind === "op") {
      const binary = isBinaryPosition(tokens[i - 1]);
      const shown: Record<Operator, string> = {
        "+": binary ? " + " : "+",
        "-": binary ? " - " : "-",
        "*": " × ",
        "/": " ÷ ",
        "^": "^",
        "%": "%",
        "(": binary ? " × (" : "(",
        ")": ")",
        of: say(language, " of ", " من "),
        sqrt: binary ? " × √" : "√",
      };
      out += shown[token.op];
    }
  });
  return out.trim();
}

const CAN_START = new Set<Operator>(["-", "+", "(", "sqrt"]);
const CAN_END = new Set<Operator>([")", "%"]);

/** Runs of math tokens between words, trimmed of operators that cannot start or end one. */
function candidateRuns(tokens: MathToken[]): { run: MathToken[]; outside: number }[] {
  const runs: MathToken[][] = [[]];
  for (const token of tokens) {
    if (token.kind === "break") runs.push([]);
    else runs.at(-1)?.push(token);
  }
  const words = tokens.filter((t) => t.kind === "break" && t.word).length;
  return runs
    .map((run) => {
      let start = 0;
      let end = run.length;
      const edge = (t: MathToken | undefined, allowed: Set<Operator>): boolean => t?.kind === "op" && !allowed.has(t.op);
      while (start < end && edge(run[start], CAN_START)) start += 1;
      while (end > start && edge(run[end - 1], CAN_END)) end -= 1;
      return { run: run.slice(start, end), outside: words };
    })
    .filter(({ run }) => {
      const ops = run.filter((t, i) => t.kind === "op" && !(i === 0 && (t.op === "-" || t.op === "+")));
      return run.some((t) => t.kind === "number") && ops.length > 0;
    })
    .sort((a, b) => b.run.length - a.run.length);
}

const MATH_CUES = cues(
  "calculate",
  "compute",
  "what is",
  "what s",
  "whats",
  "how much is",
  "solve",
  "equals",
  "result",
  "احسب",
  "كم",
  "ناتج",
  "يساوي",
  "ما هو",
  "حاصل",
);

function errorText(reason: MathErrorReason, language: Language): string {
  switch (reason) {
    case "division-by-zero":
      return say(
        language,
        "I can't divide by zero: the result is undefined. Please try another divisor.",
        "لا يمكن القسمة على صفر، فالناتج غير معرَّف. جرّب قاسمًا آخر من فضلك.",
      );
    case "overflow":
      return say(language, "That result is too large for me to calculate.", "الناتج أكبر من أن أستطيع حسابه.");
    default:
      return say(
        language,
        "That has no real-number result (for example the square root of a negative number).",
        "ليس لهذه العملية ناتج حقيقي (مثل الجذر التربيعي لعدد سالب).",
      );
  }
}

const MAX_ECHO = 60;

/** "what is 2 + 3 * 4", "15% of 200", "احسب 7 × 8", "10 / 0". */
export const mathSkill: Skill = (ctx) => {
  const tokens = tokenizeMath(ctx.text);
  const runs = candidateRuns(tokens);
  const cued = hasPhrase(ctx.tokens, MATH_CUES);
  for (const { run, outside } of runs) {
    // Numbers inside prose ("call 555-1234 later") are not questions unless asked for.
    if (!cued && outside > 1) continue;
    try {
      const value = new Parser(run).parseAll();
      const result = formatNumber(value, 6);
      const expression = render(run, ctx.language);
      // Long expressions are not echoed, so SMS replies stay short.
      if (expression.length > MAX_ECHO) return { text: say(ctx.language, `The result is ${result}.`, `الناتج: ${result}`) };
      const shown = `${expression} = ${result}`;
      return { text: say(ctx.language, shown, `الناتج: ${shown}`) };
    } catch (error) {
      if (!(error instanceof MathError)) throw error;
      if (error.reason !== "syntax") return { text: errorText(error.reason, ctx.language) };
    }
  }
  return null;
};
