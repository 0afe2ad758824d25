import { describe, expect, it } from "vitest";
import ar from "./i18n/ar.json";
import en from "./i18n/en.json";
import { ERROR_CODES, ERROR_TEXT_KEYS } from "./messages";

function lookup(catalog: unknown, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalog);
}

describe("ERROR_TEXT_KEYS", () => {
  it("gives every error code a text in English and in Arabic", () => {
    for (const code of ERROR_CODES) {
      const key = ERROR_TEXT_KEYS[code];
      expect(typeof lookup(en, key), `${code} → ${key} (en)`).toBe("string");
      expect(typeof lookup(ar, key), `${code} → ${key} (ar)`).toBe("string");
    }
  });

  it("keeps the Arabic texts Arabic: no Latin words outside the {{placeholders}}", () => {
    for (const code of ERROR_CODES) {
      const text = String(lookup(ar, ERROR_TEXT_KEYS[code])).replace(/\{\{\w+\}\}/gu, "");
      expect(text, code).not.toMatch(/[A-Za-z]/u);
    }
  });

  it("says the AI is busy without naming a provider", () => {
    expect(lookup(en, ERROR_TEXT_KEYS.ai_busy)).toBe("The AI service is busy. Please try again in a minute.");
    for (const code of ["ai_busy", "ai_unavailable", "ai_refused"] as const)
      expect(String(lookup(en, ERROR_TEXT_KEYS[code]))).not.toMatch(/openai|litellm|\d{3}/iu);
  });
});
