/** admin/analytics.php on the running stack: per-day figures from the ledger, users, purchases and redemptions. */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Client, newUser, provenInDatabase } from "../support/client";
import { adminWithRole, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

const today = () => new Date().toISOString().slice(0, 10);

describe("admin/analytics.php", () => {
  it("counts today's spending, active users, signups, purchases, redemptions and jobs, and exports them as CSV", async () => {
    const admin = await superAdmin();
    const before = (await admin.get(`/admin/analytics.php?from=${today()}&to=${today()}`)).body.days[0];

    const { client, id } = await provenInDatabase(await newUser());
    const pkg = await admin.post("/admin/wallet-packages-simple.php", {
      name: `Analytics ${randomUUID().slice(0, 6)}`,
      coins: 200,
      price: 3,
      subscription_type: "monthly",
    });
    expect(
      (await client.post("/wallet/buy.php", { packageId: pkg.body.package.id }, { "Idempotency-Key": randomUUID() })).status,
    ).toBe(200);
    const batch = await admin.post("/admin/redemption-codes.php", {
      label: "analytics",
      count: 1,
      coins: 10,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect((await client.post("/wallet/redeem.php", { code: batch.body.codes[0] })).status).toBe(200);
    expect((await client.post("/wallet/use.php", { featureType: "image", tokens: 7 })).status).toBe(200);
    const chat = await client.post("/textai/chat.php", {
      message: "hi",
      userId: id,
      conversationId: null,
      avatarType: "general",
      conversationHistory: [],
      language: "en",
    });
    expect(chat.status).toBe(200);

    const res = await admin.get(`/admin/analytics.php?from=${today()}&to=${today()}`);
    expect(res.status).toBe(200);
    const day = res.body.days[0];
    expect(day.date).toBe(today());
    // Other suites run beside this one: every figure grew by at least what this test did.
    expect(day.new_signups).toBeGreaterThanOrEqual(before.new_signups + 1);
    expect(day.active_users).toBeGreaterThanOrEqual(1);
    expect(day.coins_spent.image ?? 0).toBeGreaterThanOrEqual((before.coins_spent.image ?? 0) + 7);
    expect(day.coins_spent.text ?? 0).toBeGreaterThan(before.coins_spent.text ?? 0);
    expect(day.packages_sold).toBeGreaterThanOrEqual(before.packages_sold + 1);
    expect(day.package_revenue).toBeGreaterThanOrEqual(before.package_revenue + 3);
    expect(day.redemptions).toBeGreaterThanOrEqual(before.redemptions + 1);
    expect(day.coins_redeemed).toBeGreaterThanOrEqual(before.coins_redeemed + 10);
    expect(day.jobs.chat.completed).toBeGreaterThanOrEqual((before.jobs.chat?.completed ?? 0) + 1);

    const csv = await admin.request("GET", `/admin/analytics.php?from=${today()}&to=${today()}&format=csv`);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/u);
    const lines = String(csv.body).trim().split("\r\n");
    expect(lines[0]!.split(",")).toContain("coins_image");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"${today()}"`);
  });

  it("answers every day of the range, the last 30 by default, and refuses bad ranges naming the field", async () => {
    const admin = await superAdmin();
    expect((await admin.get("/admin/analytics.php")).body.days).toHaveLength(30);
    expect(
      (await admin.get("/admin/analytics.php?from=2026-01-01&to=2026-01-07")).body.days.map((d: { date: string }) => d.date),
    ).toEqual(["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04", "2026-01-05", "2026-01-06", "2026-01-07"]);
    for (const [query, field] of [
      ["from=2026-02-01&to=2026-01-01", /from/u],
      ["from=2024-01-01&to=2026-01-01", /to/u],
      ["from=yesterday", /from/u],
      ["to=2026-02-30x", /to/u],
      ["format=pdf", /format/u],
    ] as const) {
      const res = await admin.get(`/admin/analytics.php?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatch(field);
    }
    const support = await adminWithRole("support");
    expect((await support.get("/admin/analytics.php")).status).toBe(200);
    expect((await new Client().get("/admin/analytics.php")).status).toBe(401);
    const { client } = await newUser();
    expect((await client.get("/admin/analytics.php")).status).toBe(401);
  });
});
