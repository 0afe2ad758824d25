import { describe, expect, it } from "vitest";
import {
  cleanMarkdown,
  conversationTitle,
  displayConversationTitle,
  doctorConversationTitle,
  isArabic,
  normaliseMessage,
  relativeTime,
} from "./rules";

describe("conversation titles", () => {
  it("cuts the first user message to 50 characters plus ...", () => {
    expect(conversationTitle("a".repeat(50))).toBe("a".repeat(50));
    expect(conversationTitle("b".repeat(51))).toBe(`${"b".repeat(50)}...`);
    expect(conversationTitle("   ")).toBe("New Conversation");
  });

  it("titles Doctor conversations with [Doctor] and the first four words", () => {
    expect(doctorConversationTitle("I have had a fever since Monday")).toBe("[Doctor] I have had a");
  });

  it("shows a stored Doctor title with the screen's translated prefix, and other titles as stored", () => {
    expect(displayConversationTitle("[Doctor] I have had a", "[الطبيب]")).toBe("[الطبيب] I have had a");
    expect(displayConversationTitle("[Doctor] عندي صداع", "[الطبيب]")).toBe("[الطبيب] عندي صداع");
    expect(displayConversationTitle("Plans for [Doctor] visit", "[الطبيب]")).toBe("Plans for [Doctor] visit");
  });
});

describe("cleanMarkdown", () => {
  it("strips bold, italic, headings, code, links, quotes and rules, and makes lists bullets", () => {
    const reply = "# Title\n**bold** and *italic* and `code`\n> quoted\n---\n- one\n2. two\n[link](http://x)";
    expect(cleanMarkdown(reply)).toBe("Title\nbold and italic and code\nquoted\n\n• one\n• two\nlink");
  });

  it("leaves plain text and arithmetic alone", () => {
    expect(cleanMarkdown("2 * 3 = 6")).toBe("2 * 3 = 6");
  });
});

describe("relativeTime", () => {
  const now = new Date("2026-05-10T12:00:00Z");
  it("reads 5m, 2h, 3d, then a short date after 7 days", () => {
    expect(relativeTime(new Date("2026-05-10T11:55:00Z"), now)).toBe("5m");
    expect(relativeTime(new Date("2026-05-10T10:00:00Z"), now)).toBe("2h");
    expect(relativeTime(new Date("2026-05-07T12:00:00Z"), now)).toBe("3d");
    expect(relativeTime(new Date("2026-04-01T12:00:00Z"), now)).toMatch(/Apr/u);
  });
});

describe("language and normalisation", () => {
  it("detects Arabic script", () => {
    expect(isArabic("كم الساعة")).toBe(true);
    expect(isArabic("what time")).toBe(false);
  });

  it("normalises case, punctuation and spacing for the learned-response cache", () => {
    expect(normaliseMessage("  Hello,   WORLD!! ")).toBe("hello world");
  });
});
