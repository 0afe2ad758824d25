import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { OfflineBilling, builtInBilling, operatorBilling, setOperatorBilling, startOperatorBilling } from "./index";

const request = (key: string, amount = 5) => ({ key, userId: "u", phone: "+15550000000", amount, description: "test" });

describe("operator billing", () => {
  it("is the offline billing that sells nothing to subscribers unless OPERATOR_BILLING says offline-demo", () => {
    const base = { MONGODB_URI: "mongodb://127.0.0.1:27017/x", REDIS_URL: "redis://127.0.0.1:6379" };
    expect(loadConfig(base).OPERATOR_BILLING).toBe("offline");
    expect(loadConfig({ ...base, NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) }).OPERATOR_BILLING).toBe("offline");
    expect(() => loadConfig({ ...base, OPERATOR_BILLING: "free" })).toThrow(/OPERATOR_BILLING/u);
    expect(builtInBilling("offline", {})).toMatchObject({ name: "offline", sellsToSubscribers: false });
    expect(builtInBilling("offline-demo", {})).toMatchObject({ name: "offline-demo", sellsToSubscribers: true });
    setOperatorBilling(undefined);
    expect(operatorBilling().sellsToSubscribers).toBe(false);
  });

  it("says which billing the process runs in its log, a warning for the demo store", () => {
    const lines: [string, Record<string, unknown>, string][] = [];
    const log = {
      info: (fields: Record<string, unknown>, message: string) => lines.push(["info", fields, message]),
      warn: (fields: Record<string, unknown>, message: string) => lines.push(["warn", fields, message]),
    };
    startOperatorBilling("offline", log as never);
    startOperatorBilling("offline-demo", log as never);
    expect(lines.map(([level, fields]) => [level, fields])).toEqual([
      ["info", { operatorBilling: "offline", subscriberPurchases: false }],
      ["warn", { operatorBilling: "offline-demo", subscriberPurchases: true }],
    ]);
    expect(lines[1]![2]).toMatch(/WITHOUT payment/u);
    expect(operatorBilling().name).toBe("offline-demo");
    setOperatorBilling(undefined);
  });

  it("remembers a bounded number of answers, and a forgotten key gets the same answer again", async () => {
    const billing = new OfflineBilling({ remember: 3, decline: (r) => (r.amount > 10 ? "too much" : null) });
    const first = await billing.charge(request("k1"));
    const declined = await billing.charge(request("k2", 50));
    for (const key of ["k3", "k4", "k5"]) await billing.charge(request(key));
    expect(billing.chargedKeys()).toEqual(["k3", "k4", "k5"]);
    expect(await billing.charge(request("k1"))).toEqual(first);
    expect(await billing.charge(request("k2", 50))).toEqual(declined);
    expect(declined).toEqual({ ok: false, error: "too much" });
  });
});
