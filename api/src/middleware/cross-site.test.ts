import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { updateProfileFieldsSchema } from "@storefront/shared";
import { configuredOrigins, isAllowedOrigin, senderOrigin } from "./cross-site";
import { CONTENT_SECURITY_POLICY } from "./security-headers";
import { parseSession } from "./session";

describe("isAllowedOrigin", () => {
  const allowed = configuredOrigins({ ALLOWED_ORIGINS: ["https://admin.example"], PUBLIC_BASE_URL: "https://shop.example/app" });

  it("takes the request's own host, configured origins and PUBLIC_BASE_URL's origin", () => {
    expect(isAllowedOrigin("http://127.0.0.1:3000", "127.0.0.1:3000", allowed)).toBe(true);
    expect(isAllowedOrigin("https://admin.example", "api.internal", allowed)).toBe(true);
    expect(isAllowedOrigin("https://shop.example", "api.internal", allowed)).toBe(true);
  });

  it("refuses other hosts, other ports, look-alikes, null and non-web schemes", () => {
    for (const origin of [
      "https://evil.example",
      "http://127.0.0.1:3001",
      "http://127.0.0.1:3000.evil.example",
      "null",
      "file://",
      "chrome-extension://abc",
    ]) {
      expect(isAllowedOrigin(origin, "127.0.0.1:3000", allowed), origin).toBe(false);
    }
    expect(isAllowedOrigin("http://127.0.0.1:3000", undefined, allowed)).toBe(false);
  });

  it("reads Origin, else Referer's origin, and a bad Referer as null", () => {
    expect(senderOrigin({ origin: "https://a.example", referer: "https://b.example/x" })).toBe("https://a.example");
    expect(senderOrigin({ referer: "https://b.example/x?y" })).toBe("https://b.example");
    expect(senderOrigin({ referer: "not a url" })).toBe("null");
    expect(senderOrigin({})).toBeUndefined();
  });
});

describe("security headers", () => {
  it("has nginx send the API's Content-Security-Policy and the other headers in every static location", () => {
    const conf = readFileSync(path.resolve(import.meta.dirname, "../../../docker/nginx.conf"), "utf8");
    for (const location of ["location /assets/", "location / "]) {
      const block = conf.slice(conf.indexOf(location), conf.indexOf("}", conf.indexOf(location)));
      expect(block, location).toContain(`add_header Content-Security-Policy "${CONTENT_SECURITY_POLICY}" always;`);
      expect(block, location).toContain('add_header X-Content-Type-Options "nosniff" always;');
      expect(block, location).toContain('add_header X-Frame-Options "DENY" always;');
      expect(block, location).toContain('add_header Referrer-Policy "same-origin" always;');
    }
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe-inline");
  });
});

describe("parseSession", () => {
  it("reads garbage, non-objects and values without a cookie as no session", () => {
    for (const raw of [null, "", "{not json", "[]", "null", "42", '"text"', '{"userId":"x"}', '{"cookie":1}']) {
      expect(parseSession(raw), String(raw)).toBeNull();
    }
    expect(parseSession('{"cookie":{"originalMaxAge":1000},"userId":"u"}')).toMatchObject({ userId: "u" });
  });
});

describe("display names", () => {
  it("drop control and bidi-override characters, then trim", () => {
    const parsed = updateProfileFieldsSchema.parse({ displayName: " \u202Eabc\u0000 d\u2066e\u2069\u202A\u001b " });
    expect(parsed.displayName).toBe("abc de");
    expect(updateProfileFieldsSchema.parse({ displayName: "سارة" }).displayName).toBe("سارة");
  });

  it("drop every format character, line and paragraph separator and tag, keeping the joiners scripts need", () => {
    const name = (displayName: string) => updateProfileFieldsSchema.parse({ displayName }).displayName;
    // The list of what was still kept: direction marks, the Arabic letter mark, separators, zero-width space, U+180E, tags.
    expect(name("a\u200Eb\u200Fc\u061Cd\u2028e\u2029f\u200Bg\u180Eh\u{E0041}\u{E0001}i\u00ADj\u2060k\uFEFFl")).toBe(
      "abcdefghijkl",
    );
    expect(name("\u{E0041}\u{E0042}")).toBe("");
    expect(name("x\uD800y")).toBe("xy");
    // Emoji sequences keep their joiners; a joiner elsewhere goes.
    expect(name("👩\u200D💻 Dev")).toBe("👩\u200D💻 Dev");
    expect(name("👋🏽\u200D👩 and ❤️\u200D🔥")).toBe("👋🏽\u200D👩 and ❤️\u200D🔥");
    expect(name("a\u200Db 👩\u200D")).toBe("ab 👩");
    // Persian and Urdu keep the non-joiner between letters; elsewhere it goes.
    expect(name("می\u200Cخواهم")).toBe("می\u200Cخواهم");
    expect(name("a\u200Cb \u200Cسارة\u200C")).toBe("ab سارة");
  });
});
