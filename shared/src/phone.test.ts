import { describe, expect, it } from "vitest";
import { canonicalPhone, phoneCountryOf, phoneLookupForms, possiblePhone } from "./phone";

describe("canonicalPhone", () => {
  it("writes every form of one number as the same E.164 phone", () => {
    for (const typed of ["+14600059478", "14600059478", "0014600059478", "+1 (460) 005-9478", "(460) 005-9478", "460.005.9478"])
      expect(canonicalPhone(typed, "US"), typed).toBe("+14600059478");
  });

  it("reads a number without a prefix in the configured country, then as international digits", () => {
    expect(canonicalPhone("0501234567", "SA")).toBe("+966501234567");
    expect(canonicalPhone("966501234567", "SA")).toBe("+966501234567");
    expect(canonicalPhone("+44 (0)7911 123456", "US")).toBe("+447911123456");
    expect(canonicalPhone("14600059478", "SA")).toBe("+14600059478");
  });

  it("keeps a number impossible for its country as + and digits, in every form", () => {
    expect(canonicalPhone("+1555123456789", "US")).toBe("+1555123456789");
    expect(canonicalPhone("1555123456789", "US")).toBe("+1555123456789");
    expect(canonicalPhone("001555123456789", "US")).toBe("+1555123456789");
  });
});

describe("possiblePhone", () => {
  it("refuses what libphonenumber cannot parse or finds impossible, never falling back to + and digits", () => {
    expect(possiblePhone("+015550001001", "US")).toBeNull();
    expect(possiblePhone("+1555123456789", "US")).toBeNull();
    expect(possiblePhone("0501234567", "SA")).toBe("+966501234567");
    expect(possiblePhone("00 1 460 005 9478", "SA")).toBe("+14600059478");
  });
});

describe("phoneLookupForms", () => {
  it("lists the canonical form first, then the forms rows were stored in before", () => {
    const forms = phoneLookupForms("+1 460 005 9478", "US");
    expect(forms[0]).toBe("+14600059478");
    expect(forms).toEqual(expect.arrayContaining(["14600059478", "0014600059478"]));
  });
});

describe("phoneCountryOf", () => {
  it("names a number's country, and for one no country's plan holds, its calling code's main one", () => {
    expect(phoneCountryOf("+966501234567")).toBe("SA");
    expect(phoneCountryOf("+201001234567")).toBe("EG");
    expect(phoneCountryOf("+18765551234")).toBe("JM");
    expect(phoneCountryOf("+15550001001")).toBe("US");
    expect(phoneCountryOf("+447700900123")).toBe("GB");
    expect(phoneCountryOf("not a number")).toBeNull();
  });
});
