import { describe, expect, it } from "vitest";
import { isArabic } from "../rules";
import { CITIES, greatCircleKm, type City } from "./cities";
import { localReply, type ChatTurn } from "./engine";

const city = (id: string): City => {
  const found = CITIES.find((c) => c.id === id);
  if (!found) throw new Error(id);
  return found;
};

describe("city table", () => {
  it("holds about 40 major world and Arab cities with English and Arabic names", () => {
    expect(CITIES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CITIES.map((c) => c.id)).size).toBe(CITIES.length);
    for (const c of CITIES) {
      expect(isArabic(c.ar), c.id).toBe(true);
      expect(Math.abs(c.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(c.lon)).toBeLessThanOrEqual(180);
    }
  });
});

describe("greatCircleKm", () => {
  it("matches known great-circle distances", () => {
    expect(greatCircleKm(city("london"), city("paris"))).toBeGreaterThan(340);
    expect(greatCircleKm(city("london"), city("paris"))).toBeLessThan(348);
    expect(greatCircleKm(city("new-york"), city("london"))).toBeGreaterThan(5550);
    expect(greatCircleKm(city("new-york"), city("london"))).toBeLessThan(5590);
    expect(Math.round(greatCircleKm(city("cairo"), city("riyadh")))).toBe(1634);
  });

  it("is symmetric and zero for the same city", () => {
    expect(greatCircleKm(city("cairo"), city("tokyo"))).toBeCloseTo(greatCircleKm(city("tokyo"), city("cairo")), 9);
    expect(greatCircleKm(city("dubai"), city("dubai"))).toBe(0);
  });
});

describe("distance answers", () => {
  it("answers in km and miles", () => {
    expect(localReply({ message: "distance from Cairo to Riyadh", language: "en" })).toBe(
      "The distance from Cairo to Riyadh is about 1,634 km (1,015 miles) in a straight line. By road it is usually longer.",
    );
  });

  it("answers Arabic questions in Arabic, whatever the language setting", () => {
    const reply = localReply({ message: "كم المسافة بين القاهرة والرياض", language: "en" });
    expect(isArabic(reply)).toBe(true);
    expect(reply).toContain("1,634 كم");
    expect(reply).toContain("من القاهرة إلى الرياض");
  });

  it("answers English city names in Arabic when the language is Arabic", () => {
    const reply = localReply({ message: "distance from Dubai to Abu Dhabi", language: "ar" });
    expect(reply).toContain("من دبي إلى أبو ظبي");
    expect(reply).toContain("123 كم");
  });

  it("takes the city after from/من as the origin", () => {
    expect(localReply({ message: "how far is Riyadh from Cairo?", language: "en" })).toContain("from Cairo to Riyadh");
    expect(localReply({ message: "كم تبعد الرياض من جدة", language: "ar" })).toContain("من جدة إلى الرياض");
  });

  it("recognises multi-word and prefixed Arabic names", () => {
    expect(localReply({ message: "المسافة من الدار البيضاء للرباط", language: "ar" })).toContain("من الدار البيضاء إلى الرباط");
    expect(localReply({ message: "distance between New York and Los Angeles", language: "en" })).toContain("3,936 km");
  });

  it("knows a city is 0 km from itself", () => {
    expect(localReply({ message: "distance between cairo and cairo", language: "en" })).toBe(
      "Cairo to Cairo is the same place: 0 km.",
    );
  });

  it("asks for two cities when it cannot tell the route", () => {
    expect(localReply({ message: "distance to Riyadh", language: "en" })).toMatch(/^Tell me two cities I know/u);
  });
});

describe("travel time answers", () => {
  const reply = (message: string, language: "en" | "ar" = "en", history?: ChatTurn[]) =>
    localReply({ message, language, history });

  it("uses 5 km/h walking, 10 km/h running and 20 km/h cycling", () => {
    expect(reply("how long to walk 25 km")).toBe("Walking 25 km at 5 km/h takes about 5 hours.");
    expect(reply("running 25 km")).toBe("Running 25 km at 10 km/h takes about 2 hours 30 minutes.");
    expect(reply("how long by bike for 25 km")).toBe("Cycling 25 km at 20 km/h takes about 1 hour 15 minutes.");
    expect(reply("how long to walk 10 miles")).toBe("Walking 16.09 km at 5 km/h takes about 3 hours 13 minutes.");
  });

  it("gives days at 8 hours of walking and 6 hours of running per day", () => {
    expect(reply("how long to walk from Cairo to Alexandria")).toBe(
      "Walking from Cairo to Alexandria (about 180 km in a straight line) at 5 km/h takes about 36 hours, which is about 4.5 days at 8 hours of walking per day.",
    );
    expect(reply("running from Cairo to Alexandria")).toContain(
      "takes about 18 hours, which is about 3 days at 6 hours of running per day.",
    );
    expect(reply("walk 30 km")).not.toContain("days");
  });

  it("answers every mode when none is named", () => {
    const lines = reply("how long does it take from Cairo to Alexandria?").split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^Walking .* 36 hours/u);
    expect(lines[1]).toMatch(/^Running .* 18 hours/u);
    expect(lines[2]).toBe("Cycling from Cairo to Alexandria (about 180 km in a straight line) at 20 km/h takes about 9 hours.");
  });

  it("answers in Arabic", () => {
    const text = reply("كم يستغرق المشي من القاهرة إلى الإسكندرية", "ar");
    expect(text).toBe(
      "المشي من القاهرة إلى الإسكندرية (نحو 180 كم في خط مستقيم) بسرعة 5 كم/ساعة يستغرق نحو 36 ساعة، أي نحو 4.5 يوم بمعدل 8 ساعات مشي يوميًا.",
    );
    expect(reply("كم يستغرق الجري 25 كم", "ar")).toBe("الجري مسافة 25 كم بسرعة 10 كم/ساعة يستغرق نحو ساعتين و30 دقيقة.");
    expect(reply("بالدراجة من دبي إلى أبو ظبي", "ar")).toContain("ركوب الدراجة من دبي إلى أبو ظبي");
  });

  it("asks for a distance when a travel question has none", () => {
    expect(reply("how long to walk?")).toMatch(/^Tell me a distance or two cities/u);
  });

  it("does not treat a bare mention of a sport as a travel question", () => {
    expect(reply("I like running")).toMatch(/^I can answer questions/u);
  });
});

describe("follow-ups from the history", () => {
  const user = (content: string): ChatTurn => ({ role: "user", content });
  const assistant = (content: string): ChatTurn => ({ role: "assistant", content });
  const distanceTalk = [user("distance from Cairo to Riyadh"), assistant("The distance from Cairo to Riyadh is about 1,634 km.")];

  it("answers 'and by bicycle?' for the route asked before", () => {
    expect(localReply({ message: "and by bicycle?", language: "en", history: distanceTalk })).toBe(
      "Cycling from Cairo to Riyadh (about 1,634 km in a straight line) at 20 km/h takes about 81 hours 42 minutes.",
    );
    const arabic = localReply({ message: "وبالدراجة؟", language: "ar", history: [user("كم المسافة بين القاهرة والرياض")] });
    expect(arabic).toContain("ركوب الدراجة من القاهرة إلى الرياض");
  });

  it("changes the destination or the origin of the earlier route", () => {
    expect(localReply({ message: "and to Dubai?", language: "en", history: distanceTalk })).toContain(
      "The distance from Cairo to Dubai is about 2,423 km",
    );
    const cycling = [...distanceTalk, user("and by bicycle?"), assistant("Cycling ...")];
    expect(localReply({ message: "and from Jeddah?", language: "en", history: cycling })).toMatch(
      /^Cycling from Jeddah to Riyadh/u,
    );
  });

  it("reuses a written distance", () => {
    const history = [user("how long to walk 25 km"), assistant("Walking 25 km ... 5 hours.")];
    expect(localReply({ message: "and running?", language: "en", history })).toBe(
      "Running 25 km at 10 km/h takes about 2 hours 30 minutes.",
    );
  });

  it("tolerates the current message already appended to the history", () => {
    const history = [...distanceTalk, user("and by bicycle?")];
    expect(localReply({ message: "and by bicycle?", language: "en", history })).toMatch(/^Cycling from Cairo to Riyadh/u);
  });

  it("only looks at the last 5 turns", () => {
    const old = [...distanceTalk, user("hello"), assistant("Hello!"), user("thanks"), assistant("You're welcome!")];
    expect(localReply({ message: "and by bicycle?", language: "en", history: old.slice(0, -1) })).toMatch(/^Cycling/u);
    expect(localReply({ message: "and by bicycle?", language: "en", history: old })).not.toMatch(/^Cycling/u);
  });

  it("ignores routes that only the assistant mentioned", () => {
    const history = [user("hello"), assistant("The distance from Cairo to Riyadh is 1,634 km.")];
    expect(localReply({ message: "and by bicycle?", language: "en", history })).not.toMatch(/^Cycling/u);
  });

  it("does not answer follow-ups without a history", () => {
    expect(localReply({ message: "and by bicycle?", language: "en" })).toMatch(/^I can answer questions/u);
  });
});
