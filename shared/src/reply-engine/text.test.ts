import { describe, expect, it } from "vitest";
import { findPhrases, normalizeText, phraseTable, tokenize } from "./text";

const tokens = (text: string) => tokenize(normalizeText(text));

describe("phrase tables", () => {
  const table = phraseTable([
    { phrases: ["york", "new"], value: "short" },
    { phrases: ["new york"], value: "new york" },
    { phrases: ["cats"], value: "cats" },
    { phrases: ["cat food"], value: "cat food" },
    { phrases: ["القاهرة"], value: "cairo" },
  ]);

  it("finds the longest phrase at a place, then goes on after it", () => {
    expect(findPhrases(tokens("new york and york"), table).map((m) => [m.value, m.start, m.end])).toEqual([
      ["new york", 0, 2],
      ["short", 3, 4],
    ]);
  });

  it("prefers the longer phrase even when it starts with another form of the word", () => {
    // "cats" is also "cat": the two-word phrase under "cat" wins over the one-word "cats".
    expect(findPhrases(tokens("cats food"), table).map((m) => m.value)).toEqual(["cat food"]);
    expect(findPhrases(tokens("cats"), table).map((m) => m.value)).toEqual(["cats"]);
  });

  it("matches Arabic words with their prefixes and article", () => {
    expect(findPhrases(tokens("وبالقاهره"), table).map((m) => m.value)).toEqual(["cairo"]);
  });
});
