import { describe, expect, it } from "vitest";
import { limitSmsReply, smsEncoding } from "@storefront/shared";
import { canonicalPhone, keywordOf } from "./index";

describe("keywordOf", () => {
  it("knows STOP and START in English and Arabic, whatever the case and trailing punctuation", () => {
    for (const text of ["STOP", "stop", " Stop! ", "UNSUBSCRIBE", "إيقاف", "ايقاف", "الغاء", "إلغاء"])
      expect(keywordOf(text)).toBe("stop");
    for (const text of ["START", "start.", "ابدأ", "ابدا"]) expect(keywordOf(text)).toBe("start");
  });

  it("leaves ordinary messages alone, even ones that mention the words", () => {
    for (const text of ["please stop the timer", "start a workout", "stopwatch", ""]) expect(keywordOf(text)).toBeNull();
  });
});

describe("canonicalPhone", () => {
  it("writes every form of a number the same way", () => {
    expect(canonicalPhone("15550001234")).toBe("+15550001234");
    expect(canonicalPhone("+15550001234")).toBe("+15550001234");
    expect(canonicalPhone("0015550001234")).toBe("+15550001234");
  });
});

describe("limitSmsReply (gateway replies)", () => {
  it("keeps replies within 400 characters, or 210 in Arabic", () => {
    const long = "word ".repeat(200);
    expect(limitSmsReply(long, "en").length).toBeLessThanOrEqual(400);
    expect(limitSmsReply("كلمة ".repeat(100), "ar").length).toBeLessThanOrEqual(210);
    expect(limitSmsReply("short answer", "en")).toBe("short answer");
  });

  it("cuts an English reply without leaving GSM-7 (no ellipsis character)", () => {
    expect(smsEncoding(limitSmsReply("word ".repeat(200), "en")).encoding).toBe("GSM-7");
  });
});
