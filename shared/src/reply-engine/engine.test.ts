import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PERSONA_IDS } from "../constants";
import { isArabic } from "../rules";
import { localReply, type ChatTurn, type LocalReplyInput } from "./engine";

const now = new Date("2026-11-21T14:05:00Z");
const FALLBACK_START =
  "I can answer questions about distances between cities, travel times, unit conversions, arithmetic, definitions and the time.";
const DISCLAIMER = "This is general information, not medical advice: please see a doctor about your own health.";

describe("language", () => {
  it("answers in Arabic when the language is ar or the message is in Arabic script", () => {
    expect(isArabic(localReply({ message: "what time is it", language: "ar", now }))).toBe(true);
    expect(isArabic(localReply({ message: "مرحبا", language: "en", now }))).toBe(true);
    expect(isArabic(localReply({ message: "tell me a joke", language: "ar" }))).toBe(true);
    expect(isArabic(localReply({ message: "tell me a joke", language: "en" }))).toBe(false);
  });
});

describe("small talk", () => {
  const reply = (message: string, extra: Partial<LocalReplyInput> = {}) => localReply({ message, language: "en", ...extra });

  it("greets back and says what it can do", () => {
    expect(reply("hello")).toBe(`Hello! ${FALLBACK_START}`);
    expect(reply("Hi there!")).toMatch(/^Hello! /u);
    expect(reply("good morning")).toMatch(/^Good morning! /u);
    expect(reply("salam")).toMatch(/^Wa alaikum assalam! /u);
    expect(reply("السلام عليكم")).toMatch(/^وعليكم السلام/u);
    expect(reply("مرحبا")).toMatch(/^أهلًا وسهلًا!/u);
    expect(reply("hello, how are you?")).toMatch(/^Hello! I'm doing well/u);
  });

  it("thanks and goodbyes", () => {
    expect(reply("thanks!")).toBe("You're welcome! Happy to help.");
    expect(reply("thank you so much")).toBe("You're welcome! Happy to help.");
    expect(reply("شكرا جزيلا")).toBe("عفوًا! يسعدني أن أساعدك.");
    expect(reply("bye")).toBe("Goodbye! Have a great day.");
  });

  it("says who it is without pretending to be a language model", () => {
    const who = reply("who are you?");
    expect(who).toContain("built-in offline assistant");
    expect(who).toContain("I'm not a language model");
    expect(reply("who are you?", { persona: "chef" })).toContain("You are talking to the Chef persona.");
    const arabic = reply("من أنت؟");
    expect(arabic).toContain("لست نموذجًا لغويًا");
  });

  it("lists examples when asked what it can do", () => {
    expect(reply("what can you do?")).toContain('"distance from Cairo to Riyadh"');
  });

  it("does not mistake a greeting before a real question for small talk", () => {
    expect(reply("hi, I have a headache that started yesterday")).toMatch(/^I can answer questions/u);
  });
});

describe("time", () => {
  it("tells the current time from input.now, in UTC", () => {
    expect(localReply({ message: "what time is it?", language: "en", now })).toBe(
      "It is 14:05 (UTC) on Saturday, 21 November 2026.",
    );
    expect(localReply({ message: "What's the date today?", language: "en", now })).toBe(
      "It is 14:05 (UTC) on Saturday, 21 November 2026.",
    );
    expect(localReply({ message: "time?", language: "en", now: new Date("2027-01-04T03:07:00Z") })).toBe(
      "It is 03:07 (UTC) on Monday, 4 January 2027.",
    );
  });

  it("answers in Arabic", () => {
    expect(localReply({ message: "كم الساعة؟", language: "ar", now })).toBe(
      "الساعة الآن 14:05 بالتوقيت العالمي (UTC)، يوم السبت 21 نوفمبر 2026.",
    );
    expect(localReply({ message: "ما التاريخ اليوم", language: "ar", now })).toContain("نوفمبر");
  });

  it("uses the real clock when no time is given", () => {
    const reply = localReply({ message: "what time is it", language: "en" });
    expect(reply).toContain(String(new Date().getUTCFullYear()));
  });
});

describe("definitions", () => {
  const reply = (message: string, language: "en" | "ar" = "en") => localReply({ message, language });

  it("defines terms of the built-in dictionary", () => {
    expect(reply("define inflation")).toBe(
      "Inflation: the general rise of prices over time, which means the same money buys less.",
    );
    expect(reply("What is photosynthesis?")).toMatch(/^Photosynthesis: the process by which plants/u);
    expect(reply("what does AI mean")).toMatch(/^Artificial intelligence: /u);
    expect(reply("what is blood pressure")).toMatch(/^Blood pressure: /u);
    expect(reply("vitamins?")).toMatch(/^Vitamin: /u);
  });

  it("defines in Arabic", () => {
    expect(reply("ما معنى التضخم", "ar")).toBe("التضخم: الارتفاع العام في الأسعار مع الوقت، بحيث تشتري النقود نفسها أقل من قبل.");
    expect(reply("ما هو الذكاء الاصطناعي؟", "ar")).toMatch(/^الذكاء الاصطناعي: /u);
    expect(reply("define gravity", "ar")).toMatch(/^الجاذبية: /u);
  });

  it("needs a question, not just the word inside a sentence", () => {
    expect(reply("inflation is killing my budget this month")).toMatch(/^I can answer questions/u);
  });
});

describe("personas", () => {
  it("adds the Doctor's disclaimer to health answers and to the fallback only", () => {
    const health = localReply({ message: "what is diabetes?", language: "en", persona: "doctor" });
    expect(health).toMatch(/^Diabetes: /u);
    expect(health.endsWith(DISCLAIMER)).toBe(true);
    const symptom = localReply({ message: "is 39 c a fever? convert 39 c to f", language: "en", persona: "doctor" });
    expect(symptom).toBe(`39 °C = 102.2 °F ${DISCLAIMER}`);
    expect(localReply({ message: "what is inflation?", language: "en", persona: "doctor" })).not.toContain(DISCLAIMER);
    expect(localReply({ message: "what is 2+2", language: "en", persona: "doctor" })).toBe("2 + 2 = 4");
    const fallback = localReply({ message: "I have a headache", language: "en", persona: "doctor" });
    expect(fallback.startsWith(FALLBACK_START)).toBe(true);
    expect(fallback.endsWith(DISCLAIMER)).toBe(true);
    expect(localReply({ message: "what is diabetes?", language: "en" })).not.toContain(DISCLAIMER);
  });

  it("gives the Doctor's disclaimer in Arabic", () => {
    const reply = localReply({ message: "ما هو السكري", language: "ar", persona: "doctor" });
    expect(reply).toMatch(/^السكري: /u);
    expect(reply).toContain("ليست نصيحة طبية");
  });

  it("introduces the other personas on the fallback only", () => {
    expect(localReply({ message: "give me a pasta recipe", language: "en", persona: "chef" })).toMatch(
      /^Chef here \(recipes, ingredients and cooking tips\), working offline right now\. I can answer questions/u,
    );
    expect(localReply({ message: "give me a pasta recipe", language: "ar", persona: "chef" })).toMatch(/^معك الشيف، /u);
    expect(localReply({ message: "fix my wifi", language: "en", persona: "tech-girl" })).toMatch(/^Tech Specialist here/u);
    expect(localReply({ message: "what is 2+2", language: "en", persona: "chef" })).toBe("2 + 2 = 4");
    expect(localReply({ message: "give me a pasta recipe", language: "en" }).startsWith(FALLBACK_START)).toBe(true);
  });
});

describe("fallback", () => {
  it("is honest about what it can do, in both languages", () => {
    const en = localReply({ message: "write me a poem about the sea", language: "en" });
    expect(en.startsWith(FALLBACK_START)).toBe(true);
    expect(en).toContain("not a language model");
    const ar = localReply({ message: "اكتب لي قصيدة عن البحر", language: "ar" });
    expect(ar).toMatch(/^يمكنني الإجابة عن أسئلة المسافات بين المدن/u);
    expect(ar).toContain("لست نموذجًا لغويًا");
  });

  it("answers empty and whitespace-only messages with the fallback", () => {
    expect(localReply({ message: "", language: "en" }).startsWith(FALLBACK_START)).toBe(true);
    expect(localReply({ message: "   \n ", language: "en" }).startsWith(FALLBACK_START)).toBe(true);
  });
});

describe("robustness", () => {
  const turn = fc.record({ role: fc.constantFrom<ChatTurn["role"]>("user", "assistant"), content: fc.string({ maxLength: 80 }) });
  const seeds = [
    "distance from Cairo to Riyadh",
    "and by bicycle?",
    "كم المسافة بين القاهرة والرياض",
    "what is 2+3*4",
    "convert 10 km to miles",
    "hello",
    "define inflation",
  ];
  const message = fc.oneof(
    fc.constantFrom(...seeds),
    fc.string({ maxLength: 120 }),
    fc.string({ unit: "binary", maxLength: 120 }),
  );
  const input = fc.record({
    message,
    language: fc.constantFrom<"en" | "ar">("en", "ar"),
    persona: fc.option(fc.constantFrom(...PERSONA_IDS), { nil: undefined }),
    history: fc.array(
      fc.oneof(
        turn,
        fc.constantFrom(...seeds).map((content): ChatTurn => ({ role: "user", content })),
      ),
      {
        maxLength: 8,
      },
    ),
  });

  it("never throws, always answers, and is deterministic", () => {
    fc.assert(
      fc.property(input, (i) => {
        const first = localReply({ ...i, now });
        expect(first.length).toBeGreaterThan(0);
        expect(localReply({ ...i, now, history: i.history.map((t) => ({ ...t })) })).toBe(first);
      }),
      { numRuns: 300 },
    );
  });

  it("tolerates unknown personas and malformed history from request data", () => {
    const odd = {
      message: "tell me a joke",
      language: "en",
      persona: "pirate",
      history: [null, { role: "user" }],
    } as unknown as LocalReplyInput;
    expect(localReply(odd).startsWith(FALLBACK_START)).toBe(true);
  });

  it("answers long messages quickly", () => {
    const long = `${"what is the distance from Cairo to Riyadh and 2+2 ".repeat(200)}`;
    const started = Date.now();
    expect(localReply({ message: long, language: "en" }).length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("has no Node-only imports, so it also runs in the browser", () => {
    const dir = import.meta.dirname;
    const sources = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
    expect(sources.length).toBeGreaterThanOrEqual(8);
    for (const file of sources) {
      const code = readFileSync(join(dir, file), "utf8");
      for (const [, from] of code.matchAll(/from\s+"([^"]+)"/gu)) {
        expect(from, `${file} imports ${from}`).toMatch(/^\.\.?\//u);
      }
      expect(code, file).not.toMatch(/\beval\s*\(|new Function\b|\brequire\s*\(|process\./u);
    }
  });
});
