import { describe, expect, it } from "vitest";
import { retryWhen } from "./retry-after";

describe("retryWhen", () => {
  it("says seconds up to a minute, minutes up to an hour, then hours, rounded up", () => {
    expect(retryWhen("en", 0.2)).toBe("in 1 second");
    expect(retryWhen("en", 45)).toBe("in 45 seconds");
    expect(retryWhen("en", 61)).toBe("in 2 minutes");
    expect(retryWhen("en", 3600)).toBe("in 60 minutes");
    expect(retryWhen("en", 3601)).toBe("in 2 hours");
  });

  it("speaks Arabic with its own plural forms", () => {
    expect(retryWhen("ar", 120)).toBe("خلال دقيقتين");
    expect(retryWhen("ar", 300)).toBe("خلال 5 دقائق");
  });
});
