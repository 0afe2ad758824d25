/// <reference lib="dom" />
/**
 * Buying coins on a stack whose operator billing sells nothing (OPERATOR_BILLING=offline, the
 * default: no payment provider set up): the API says which billing it runs in its log, refuses a
 * purchase and a subscriber's renewal switched on (503 purchases_unavailable) and writes nothing,
 * and the Get coins page says so with its Buy buttons off. On an API process and a database of
 * their own; the run's own stack is the offline demo store (tests/setup/global.ts). Also the page
 * of a subscriber whose number is not proven, on the run's stack. Screenshots at phone and
 * desktop sizes in English and Arabic.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LedgerEntry, PackageAssignmentModel, User, WalletPackageModel } from "@storefront/shared/server";
import { startApiOnOwnDatabase, type ApiProcess } from "../support/api-process";
import { Client, adminClient, uniquePhone } from "../support/client";
import { keepFailureScreenshots, launch, screenshot, seriousViolations, setLanguage } from "./browser";

const PASSWORD = "secret-pass";
const DAY = 86_400_000;
let api: ApiProcess;
let browser: Browser;
let page: Page;

/** The notice fits the width, then a full-page shot, at phone and desktop sizes, in both languages. */
async function shots(name: string) {
  for (const language of ["en", "ar"] as const) {
    await setLanguage(page, language);
    await page.getByTestId("purchases-closed").waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe(language === "ar" ? "rtl" : "ltr");
    for (const [width, height] of [
      [390, 844],
      [1366, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => window.scrollTo(0, 0));
      const box = await page.getByTestId("purchases-closed").boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      await screenshot(page, `${name}-${width}-${language}`);
    }
  }
  await setLanguage(page, "en");
}

/** A subscriber signed up on `base`, its number proven or not, logged in there as a client. */
async function subscriber(base: string, proven: boolean) {
  const client = new Client(base);
  const phone = uniquePhone();
  expect((await client.post("/signup.php", { phone, password: PASSWORD })).status).toBe(201);
  const login = await client.post("/login-session-fix.php", { phone, password: PASSWORD });
  expect(login.status).toBe(200);
  const id = login.body.user.id as string;
  if (proven) await User.updateOne({ _id: id }, { $set: { phoneVerifiedAt: new Date() } });
  return { client, id, phone };
}

async function signIn(base: string, phone: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel("Phone number").fill(phone);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/dashboard$/u);
}

beforeAll(async () => {
  api = await startApiOnOwnDatabase("storefront_billing_none", { OPERATOR_BILLING: "offline", LOG_LEVEL: "info" });
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
});

keepFailureScreenshots(() => page);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

describe("a stack whose operator billing sells nothing", () => {
  let phone = "";

  it("says so in its log, refuses purchases and renewals switched on with 503, and writes nothing", async () => {
    expect(api.output()).toMatch(/"operatorBilling":"offline".*"subscriberPurchases":false/u);
    const pkg = await WalletPackageModel.create({ name: "Starter", coins: 500, price: 5, subscriptionType: "monthly" });
    await WalletPackageModel.create({ name: "Weekly boost", coins: 150, price: 2, subscriptionType: "weekly" });
    const user = await subscriber(api.url, true);
    phone = user.phone;

    const shop = await user.client.get("/wallet/packages.php");
    expect(shop.status).toBe(200);
    expect(shop.body.purchases).toBe("purchases_unavailable");
    const bought = await user.client.post(
      "/wallet/buy.php",
      { packageId: String(pkg._id) },
      { "Idempotency-Key": "billing-none-1" },
    );
    expect(bought.status).toBe(503);
    expect(bought.body.code).toBe("purchases_unavailable");
    expect(await PackageAssignmentModel.countDocuments({ userId: user.id })).toBe(0);
    expect(await LedgerEntry.countDocuments({ userId: user.id })).toBe(0);

    // A purchase made while the stack was a demo store: its renewal is not switched on again for nothing.
    const earlier = await PackageAssignmentModel.create({
      userId: user.id,
      packageId: pkg._id,
      packageName: "Starter",
      coins: 500,
      price: 5,
      subscriptionType: "monthly",
      activeKey: `${user.id}:${String(pkg._id)}`,
      expiresAt: new Date(Date.now() + 30 * DAY),
      autoRenew: false,
      assignedBy: `user:${user.id}`,
      payment: "paid",
    });
    const on = await user.client.request("PUT", "/wallet/auto-renew.php", {
      subscriptionId: String(earlier._id),
      autoRenew: true,
    });
    expect(on.status).toBe(503);
    expect(on.body.code).toBe("purchases_unavailable");
    expect((await PackageAssignmentModel.findById(earlier._id).lean())!.autoRenew).toBe(false);

    // A package the team gave once: the subscriber cannot make it renew, whatever the billing.
    const weekly = await WalletPackageModel.findOne({ name: "Weekly boost" }).lean();
    const given = await PackageAssignmentModel.create({
      userId: user.id,
      packageId: weekly!._id,
      packageName: "Weekly boost",
      coins: 150,
      price: 2,
      subscriptionType: "weekly",
      activeKey: `${user.id}:${String(weekly!._id)}`,
      expiresAt: new Date(Date.now() + 7 * DAY),
      autoRenew: false,
      assignedBy: "admin:0123456789abcdef01234567",
    });
    const grant = await user.client.request("PUT", "/wallet/auto-renew.php", {
      subscriptionId: String(given._id),
      autoRenew: true,
    });
    expect(grant.status).toBe(403);
    expect(grant.body.code).toBe("renewal_not_yours");
  });

  it("shows why on Get coins, with every Buy button off", async () => {
    await signIn(api.url, phone);
    await page.goto(`${api.url}/get-coins`);
    const notice = page.getByTestId("purchases-closed");
    await notice.getByText("Buying packages is not available yet").waitFor();
    await page.getByRole("button", { name: "Buy Starter" }).waitFor();
    for (const button of await page.getByRole("button", { name: /^Buy / }).all()) expect(await button.isDisabled()).toBe(true);
    const switches = page.getByLabel("Renew automatically");
    // The subscriptions come with their own read: wait for the second, then say there are no more.
    await switches.nth(1).waitFor({ state: "attached" });
    expect(await switches.count()).toBe(2);
    for (const box of await switches.all()) expect(await box.isDisabled()).toBe(true);
    await page.getByText("Given by the team: it renews only if they set it to.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shots("get-coins-unavailable");
    await setLanguage(page, "ar");
    await notice.getByText("شراء الباقات غير متاح بعد").waitFor();
    await setLanguage(page, "en");
  });
});

describe("a subscriber whose number is not proven (the run's demo store)", () => {
  it("is asked to prove it, with a link to /verify-phone, and cannot buy", async () => {
    const baseUrl = inject("baseUrl");
    const offered = await (
      await adminClient()
    ).post("/admin/wallet-packages-simple.php", {
      name: `Unproven pack ${Date.now()}`,
      coins: 100,
      price: 1,
    });
    expect(offered.status).toBe(201);
    const user = await subscriber(baseUrl, false);
    const shop = await user.client.get("/wallet/packages.php");
    expect(shop.body.purchases).toBe("phone_unproven");
    await page.context().clearCookies();
    await signIn(baseUrl, user.phone);
    await page.goto(`${baseUrl}/get-coins`);
    const notice = page.getByTestId("purchases-closed");
    await notice.getByText("Prove your phone number to buy").waitFor();
    expect(await page.getByRole("button", { name: `Buy ${offered.body.package.name}` }).isDisabled()).toBe(true);
    await shots("get-coins-phone-unproven");
    await notice.getByRole("link", { name: "Prove my number" }).click();
    await page.waitForURL(/\/verify-phone$/u);
  });
});
