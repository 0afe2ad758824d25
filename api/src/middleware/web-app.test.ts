import { describe, expect, it } from "vitest";
import { chooseEncoding } from "./web-app";

describe("chooseEncoding", () => {
  it.each([
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["BR;Q=1, GZIP;q=0.8", "br"],
    ["gzip", "gzip"],
    ["gzip;q=0", undefined],
    ["deflate", undefined],
    ["identity", undefined],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["gzip;q=abc", "gzip"],
    ["", undefined],
    [undefined, undefined],
  ])("%s -> %s", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});
