import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localReply } from "./engine";
import { normalizeText } from "./text";
import { convert, findQuantities, type UnitId } from "./units";

describe("convert", () => {
  it("converts length, mass, volume and temperature exactly", () => {
    expect(convert(10, "km", "mile")).toBeCloseTo(6.21371, 5);
    expect(convert(1, "mile", "km")).toBeCloseTo(1.609344, 9);
    expect(convert(1, "ft", "m")).toBeCloseTo(0.3048, 9);
    expect(convert(1, "inch", "cm")).toBeCloseTo(2.54, 9);
    expect(convert(1, "lb", "kg")).toBeCloseTo(0.45359237, 9);
    expect(convert(1, "gal", "l")).toBeCloseTo(3.785411784, 9);
    expect(convert(100, "c", "f")).toBeCloseTo(212, 9);
    expect(convert(-40, "c", "f")).toBeCloseTo(-40, 9);
    expect(convert(32, "f", "c")).toBeCloseTo(0, 9);
    expect(convert(0, "k", "c")).toBeCloseTo(-273.15, 9);
  });

  it("refuses to mix dimensions", () => {
    expect(() => convert(1, "km", "kg")).toThrow();
  });

  it("round-trips any value", () => {
    const pairs: [UnitId, UnitId][] = [
      ["km", "mile"],
      ["m", "ft"],
      ["cm", "inch"],
      ["kg", "lb"],
      ["l", "gal"],
      ["c", "f"],
      ["f", "k"],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...pairs), fc.double({ min: -1e6, max: 1e6, noNaN: true }), ([a, b], x) => {
        expect(convert(convert(x, a, b), b, a)).toBeCloseTo(x, 6);
      }),
    );
  });
});

describe("findQuantities", () => {
  const find = (text: string) => findQuantities(normalizeText(text)).map((q) => [q.value, q.unit]);
  it("reads numbers followed by a unit, in English and Arabic", () => {
    expect(find("walk 25 km please")).toEqual([[25, "km"]]);
    expect(find("25km")).toEqual([[25, "km"]]);
    expect(find("-40 °F")).toEqual([[-40, "f"]]);
    expect(find("30 degrees celsius")).toEqual([[30, "c"]]);
    expect(find("1,500 meters")).toEqual([[1500, "m"]]);
    expect(find("٣٫٥ كيلومتر")).toEqual([[3.5, "km"]]);
    expect(find("10 أميال")).toEqual([[10, "mile"]]);
  });

  it("does not take the Arabic question word كم or bare numbers for units", () => {
    expect(find("كم المسافة")).toEqual([]);
    expect(find("the year 2026, ok")).toEqual([]);
    expect(find("10-5 km")).toEqual([[5, "km"]]);
  });
});

describe("unit conversion answers", () => {
  const reply = (message: string, language: "en" | "ar" = "en") => localReply({ message, language });

  it("converts to the unit asked for", () => {
    expect(reply("convert 10 km to miles")).toBe("10 km = 6.21 miles");
    expect(reply("how many feet in 3 meters")).toBe("3 m = 9.84 feet");
    expect(reply("5 ft to m")).toBe("5 feet = 1.52 m");
    expect(reply("100 F to C")).toBe("100 °F = 37.78 °C");
    expect(reply("what is 30 degrees celsius in fahrenheit?")).toBe("30 °C = 86 °F");
    expect(reply("how many pounds is 70 kg")).toBe("70 kg = 154.32 lb");
    expect(reply("2 liters in gallons")).toBe("2 liters = 0.53 US gallons");
    expect(reply("10 inches to cm")).toBe("10 inches = 25.4 cm");
    expect(reply("30 cm in inches")).toBe("30 cm = 11.81 inches");
    expect(reply("1 mile in km")).toBe("1 mile = 1.61 km");
    expect(reply("how many ml in 2 liters")).toBe("2 liters = 2,000 ml");
    expect(reply("how many km in 10 miles")).toBe("10 miles = 16.09 km");
  });

  it("picks the usual counterpart when asked to convert without a target", () => {
    expect(reply("convert 70 kg")).toBe("70 kg = 154.32 lb");
    expect(reply("convert 26.2 miles")).toBe("26.2 miles = 42.16 km");
  });

  it("answers in Arabic", () => {
    expect(reply("حول 10 كم إلى ميل", "ar")).toBe("10 كم = 6.21 ميل");
    expect(reply("كم رطل في 70 كيلوغرام", "ar")).toBe("70 كجم = 154.32 رطل");
    expect(reply("حول 30 درجة مئوية إلى فهرنهايت", "ar")).toBe("30 درجة مئوية = 86 درجة فهرنهايت");
    expect(reply("convert 10 km to miles", "ar")).toBe("10 كم = 6.21 ميل");
  });
});
