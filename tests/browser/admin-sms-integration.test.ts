/// <reference lib="dom" />
/**
 * The SMS Integration form's secrets: shown as set / not set, never filled in; a rotated webhook
 * secret shown once; the gateway password asked again when the URL changes; the webhook's
 * authentication choice. Screenshots at phone and desktop sizes in English and Arabic.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SmsIntegrationConfig } from "@storefront/shared/server";
import { startApiOnOwnDatabase, type ApiProcess } from "../support/api-process";
import { Client } from "../support/client";
import { keepFailureScreenshots, launch, screenshot, seriousViolations, setLanguage as setPageLanguage } from "./browser";

/**
 * The settings this suite saves and the secret it rotates are its own: an API process of its own on
 * a database of its own (on the run's server), so it runs beside the SMS suites, which sign their
 * calls with the run's webhook secret.
 */
const ADMIN = { username: "sms-form-admin", password: "sms-form-admin-password-1" };
const PASSWORD = `gw-password-${Date.now()}`;
let api: ApiProcess;
let storedSecret = "";
let browser: Browser;
let page: Page;

/** A full-page shot from the top (the sticky header and menu stay where they belong) at one size. */
async function shot(width: number, height: number, name: string) {
  await page.setViewportSize({ width, height });
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.getByTestId("sms-integration-form").boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
  await screenshot(page, name);
}

const setLanguage = (target: "en" | "ar") => setPageLanguage(page, target);

beforeAll(async () => {
  api = await startApiOnOwnDatabase("storefront_sms_form", { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
  const admin = new Client(api.url);
  expect((await admin.post("/admin/login.php", ADMIN)).status).toBe(200);
  const { webhook_url: _url, ...current } = (await admin.get("/sms/integration/config.php")).body.config;
  const saved = await admin.post("/sms/integration/config.php", {
    ...current,
    gateway_url: "https://sms-gateway.example.test/send",
    gateway_password: PASSWORD,
    webhook_secret: `sms-form-webhook-secret-${Date.now()}`,
  });
  expect(saved.status).toBe(200);
  storedSecret = (await SmsIntegrationConfig.findById("sms").lean())!.webhook_secret;
  expect(storedSecret).toBeTruthy();
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  page = await context.newPage();
  await page.goto(`${api.url}/admin-login`);
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await page.waitForURL(/\/admin-dashboard$/u);
  await openSmsIntegration();
});

async function openSmsIntegration() {
  await page.getByRole("navigation").getByRole("button", { name: "SMS Integration", exact: true }).click();
  await page.getByTestId("sms-integration-form").getByLabel("Gateway URL").waitFor();
}

keepFailureScreenshots(() => page);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

describe("SMS Integration form (admin)", () => {
  it("shows that the password and secret are set without ever filling them in", async () => {
    const form = page.getByTestId("sms-integration-form");
    await form.getByLabel("Gateway URL").waitFor();
    expect(await form.locator("label", { hasText: "Gateway password" }).innerText()).toContain("Set");
    expect(await form.locator("label", { hasText: "Webhook secret" }).innerText()).toContain("Set");
    expect(await form.getByLabel(/Gateway password/u).inputValue()).toBe("");
    expect(await form.getByLabel(/Webhook secret/u).inputValue()).toBe("");
    const html = await page.content();
    expect(html).not.toContain(PASSWORD);
    expect(html).not.toContain(storedSecret);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("asks for the gateway password again when the URL changes, and offers Basic credentials", async () => {
    const form = page.getByTestId("sms-integration-form");
    const url = await form.getByLabel("Gateway URL").inputValue();
    await form.getByLabel("Gateway URL").fill("https://other-gateway.example.test/send");
    await form.getByText("The gateway URL changed: enter the gateway password again").waitFor();
    await form.getByRole("button", { name: "Save Configuration" }).click();
    await form.getByRole("alert").filter({ hasText: "enter the gateway password again" }).waitFor();
    await form.getByLabel("Gateway URL").fill(url);
    expect(await form.locator(".field-error", { hasText: "enter the gateway password again" }).count()).toBe(0);

    expect(await form.getByLabel("Webhook user name").count()).toBe(0);
    await form.getByLabel("How the gateway authenticates").selectOption("basic");
    await form.getByLabel("Webhook user name").waitFor();
    await form.getByLabel("How the gateway authenticates").selectOption("hmac");

    // The outbound interface: the gateway products' own, or our JSON.
    const format = form.getByLabel("Gateway's interface");
    expect(await format.inputValue()).toBe("json");
    expect(await format.locator("option").allTextContents()).toEqual(["Our JSON", "Kannel sendsms", "Jasmin HTTP API (/send)"]);
  });

  it("rotates the webhook secret and shows the new one only once", async () => {
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const shown = page.getByTestId("sms-new-secret");
    await shown.waitFor();
    const secret = await shown.locator("input").inputValue();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    await page.getByText(/The previous secret is accepted until/u).waitFor();

    await shot(1366, 900, "admin-sms-integration-form-1366-en");
    await shot(390, 844, "admin-sms-integration-form-390-en");
    await setLanguage("ar");
    await page.getByRole("button", { name: "تدوير السر" }).waitFor();
    await shot(390, 844, "admin-sms-integration-form-390-ar");
    await shot(1366, 900, "admin-sms-integration-form-1366-ar");
    expect(await seriousViolations(page)).toEqual([]);
    await setLanguage("en");

    await page.reload();
    await openSmsIntegration();
    expect(await page.getByTestId("sms-new-secret").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
  });
});
