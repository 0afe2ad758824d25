import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";

const base = { MONGODB_URI: "mongodb://127.0.0.1:27017/x", REDIS_URL: "redis://127.0.0.1:6379" };

describe("loadConfig", () => {
  it("applies DESIGN §4 defaults", () => {
    const config = loadConfig(base);
    expect(config.PORT).toBe(3000);
    expect(config.HOST).toBe("127.0.0.1");
    expect(config.AI_PROVIDER).toBe("offline");
    expect(config.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it("names the variable that is wrong", () => {
    expect(() => loadConfig({ ...base, PORT: "eighty" })).toThrow(/PORT/u);
    expect(() => loadConfig({ ...base, REDIS_URL: "http://x" })).toThrow(/REDIS_URL/u);
    expect(() => loadConfig({ REDIS_URL: base.REDIS_URL })).toThrow(/MONGODB_URI/u);
    expect(() => loadConfig({ ...base, AI_PROVIDER: "magic" })).toThrow(/AI_PROVIDER/u);
  });

  it("requires a session secret in production and both admin variables together", () => {
    expect(() => loadConfig({ ...base, NODE_ENV: "production" })).toThrow(/SESSION_SECRET/u);
    expect(() => loadConfig({ ...base, ADMIN_USERNAME: "root" })).toThrow(/ADMIN_USERNAME/u);
    expect(() => loadConfig({ ...base, ADMIN_USERNAME: "root", ADMIN_PASSWORD: "short" })).toThrow(/ADMIN_PASSWORD/u);
  });

  it("keeps the API documentation to administrators unless API_DOCS_PUBLIC=true", () => {
    expect(loadConfig(base).API_DOCS_PUBLIC).toBe(false);
    expect(loadConfig({ ...base, API_DOCS_PUBLIC: "false" }).API_DOCS_PUBLIC).toBe(false);
    expect(loadConfig({ ...base, API_DOCS_PUBLIC: "true" }).API_DOCS_PUBLIC).toBe(true);
    expect(() => loadConfig({ ...base, API_DOCS_PUBLIC: "yes" })).toThrow(/API_DOCS_PUBLIC/u);
  });
});
