import { describe, expect, it } from "vitest";
import { formatDays, formatDuration, formatNumber } from "./format";

describe("formatNumber", () => {
  it("groups thousands and keeps at most the asked decimals, without trailing zeros", () => {
    expect(formatNumber(1234.5)).toBe("1,234.5");
    expect(formatNumber(1234567)).toBe("1,234,567");
    expect(formatNumber(2 / 3)).toBe("0.67");
    expect(formatNumber(0.1 + 0.2, 6)).toBe("0.3");
    expect(formatNumber(6.2137119, 2)).toBe("6.21");
    expect(formatNumber(5, 0)).toBe("5");
    expect(formatNumber(-1500)).toBe("-1,500");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(-0)).toBe("0");
  });

  it("shows very large and very small values in significant digits", () => {
    expect(formatNumber(2 ** 64)).toBe("1.84467e+19");
    expect(formatNumber(-(2 ** 64))).toBe("-1.84467e+19");
    expect(formatNumber(1e-10)).toBe("1e-10");
    expect(formatNumber(1e21)).toBe("1e+21");
    expect(formatNumber(0.000123456)).toBe("0.000123456");
    expect(formatNumber(-0.001)).toBe("-0.001");
  });
});

describe("formatDuration", () => {
  it("writes hours and minutes in English", () => {
    expect(formatDuration(5, "en")).toBe("5 hours");
    expect(formatDuration(1, "en")).toBe("1 hour");
    expect(formatDuration(1.4, "en")).toBe("1 hour 24 minutes");
    expect(formatDuration(0.5, "en")).toBe("30 minutes");
    expect(formatDuration(1 / 60, "en")).toBe("1 minute");
  });

  it("uses the Arabic counted-noun forms", () => {
    expect(formatDuration(1, "ar")).toBe("ساعة واحدة");
    expect(formatDuration(2, "ar")).toBe("ساعتين");
    expect(formatDuration(5, "ar")).toBe("5 ساعات");
    expect(formatDuration(36, "ar")).toBe("36 ساعة");
    expect(formatDuration(6.15, "ar")).toBe("6 ساعات و9 دقائق");
  });

  it("writes days to one decimal", () => {
    expect(formatDays(4.5, "en")).toBe("4.5 days");
    expect(formatDays(40.86, "en")).toBe("40.9 days");
    expect(formatDays(3, "ar")).toBe("3 أيام");
  });
});
