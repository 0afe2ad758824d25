/**
 * The public price list (storefront.php, issue 36): what a visitor may know before signing up, read
 * from the live pricing table and the packages on sale, nothing about any account, and limited per
 * client address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storefrontResponseSchema } from "@storefront/shared";
import { startApiProcess, type ApiProcess } from "../support/api-process";
import { adminClient, Client, newUser } from "../support/client";

let limited: ApiProcess | undefined;

beforeAll(async () => {
  limited = await startApiProcess({ STOREFRONT_RATE_LIMIT_PER_IP_PER_MINUTE: "3" });
});

afterAll(async () => {
  await limited?.stop();
});

describe("storefront.php", () => {
  it("tells a visitor each tool's price from the live pricing table and the packages on sale, and nothing private", async () => {
    const admin = await adminClient();
    const onSale = await admin.post("/admin/wallet-packages-simple.php", {
      name: "Storefront visible pack",
      coins: 700,
      price: 2.5,
      subscription_type: "weekly",
      description: "On sale",
    });
    expect(onSale.status).toBe(201);
    const hidden = await admin.post("/admin/wallet-packages-simple.php", {
      name: "Storefront hidden pack",
      coins: 900,
      price: 3,
      subscription_type: "daily",
      description: "Not on sale",
      status: "inactive",
    });
    expect(hidden.status).toBe(201);
    await newUser();

    const visitor = new Client();
    const res = await visitor.get("/storefront.php");
    expect(res.status).toBe(200);
    // Exactly the documented fields: a strict parse fails on anything more (an id, a phone...).
    const body = storefrontResponseSchema.strict().parse(res.body);
    expect(JSON.stringify(body)).not.toMatch(/phone"|userId|passwordHash|"\+\d{7,}/u);
    expect(body.currency).toBe("USD");
    expect(body.phoneCountry).toBe("US");
    expect(body.newAccountCoins).toBe(0);

    const { pricing } = (await admin.get("/admin/wallet-config.php")).body as {
      pricing: { feature_type: string; tokens_per_unit: number }[];
    };
    const perUnit = (feature: string) => pricing.find((row) => row.feature_type === feature)!.tokens_per_unit;
    const price = (feature: string) => body.tools.find((tool) => tool.feature === feature);
    expect(price("image")).toEqual({ feature: "image", coins: perUnit("image"), unit: "image" });
    expect(price("doctor")).toEqual({ feature: "doctor", coins: perUnit("doctor"), unit: "word" });
    expect(price("text")).toEqual({ feature: "text", coins: perUnit("text"), unit: "4_characters" });
    expect(price("sms")).toEqual({ feature: "sms", coins: perUnit("sms"), unit: "sms" });
    // Video by the second: $0.15 a second for gen2 is 150 units of $0.001.
    expect(body.videoModels.find((m) => m.id === "gen2")?.coinsPerSecond).toBe(150 * perUnit("video"));
    expect(price("video")?.coins).toBe(150 * perUnit("video"));

    // The package list is cached a few seconds per process: a new one shows on a later read.
    const names = async () => ((await visitor.get("/storefront.php")).body.packages as { name: string }[]).map((p) => p.name);
    await expect.poll(names, { timeout: 20_000, interval: 500 }).toContain("Storefront visible pack");
    expect(await names()).not.toContain("Storefront hidden pack");
  });

  it("refuses a client address past its limit with 429 and when to come back", async () => {
    // The counter is shared with every process of the run (Redis), so its first refusal may come early.
    const visitor = new Client(limited!.url);
    let refusal: Awaited<ReturnType<Client["get"]>> | undefined;
    for (let i = 0; i < 10 && !refusal; i++) {
      const res = await visitor.get("/storefront.php");
      if (res.status === 429) refusal = res;
      else expect(res.status).toBe(200);
    }
    expect(refusal?.status).toBe(429);
    expect(refusal?.body).toMatchObject({ success: false });
    expect(Number(refusal?.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
