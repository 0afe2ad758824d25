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

  it("reads PHONE_CODE_COUNTRIES as DEFAULT_PHONE_COUNTRY's (the default), * (every country) or country codes, and refuses anything else, naming it", () => {
    expect(loadConfig(base).PHONE_CODE_COUNTRIES).toEqual(["US"]);
    expect(loadConfig({ ...base, DEFAULT_PHONE_COUNTRY: "sa" }).PHONE_CODE_COUNTRIES).toEqual(["SA"]);
    expect(loadConfig({ ...base, PHONE_CODE_COUNTRIES: "*" }).PHONE_CODE_COUNTRIES).toBe("*");
    expect(loadConfig({ ...base, PHONE_CODE_COUNTRIES: " sa, AE ,eg" }).PHONE_CODE_COUNTRIES).toEqual(["SA", "AE", "EG"]);
    for (const bad of ["", "SA,XX", "Saudi", "SA,,EG"])
      expect(() => loadConfig({ ...base, PHONE_CODE_COUNTRIES: bad }), bad).toThrow(/PHONE_CODE_COUNTRIES/u);
  });

  it("reads ALLOWED_ORIGINS as a list of origins and refuses anything else, naming it", () => {
    expect(loadConfig(base).ALLOWED_ORIGINS).toEqual([]);
    const config = loadConfig({ ...base, ALLOWED_ORIGINS: " https://a.example , http://b.example:8080/path ," });
    expect(config.ALLOWED_ORIGINS).toEqual(["https://a.example", "http://b.example:8080"]);
    expect(() => loadConfig({ ...base, ALLOWED_ORIGINS: "a.example" })).toThrow(/ALLOWED_ORIGINS/u);
  });

  it("has limits for signups, password changes and failed webhook calls", () => {
    const config = loadConfig(base);
    expect(config.SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR).toBe(20);
    expect(config.PASSWORD_CHANGE_RATE_LIMIT_PER_HOUR).toBe(10);
    expect(config.WEBHOOK_FAILURE_LIMIT_PER_MINUTE).toBe(30);
    expect(() => loadConfig({ ...base, SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR: "0" })).toThrow(/SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR/u);
  });

  it("keeps the API documentation to administrators unless API_DOCS_PUBLIC=true", () => {
    expect(loadConfig(base).API_DOCS_PUBLIC).toBe(false);
    expect(loadConfig({ ...base, API_DOCS_PUBLIC: "false" }).API_DOCS_PUBLIC).toBe(false);
    expect(loadConfig({ ...base, API_DOCS_PUBLIC: "true" }).API_DOCS_PUBLIC).toBe(true);
    expect(() => loadConfig({ ...base, API_DOCS_PUBLIC: "yes" })).toThrow(/API_DOCS_PUBLIC/u);
  });
});
