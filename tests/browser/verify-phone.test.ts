/// <reference lib="dom" />
/**
 * Proving the phone number in the web app: the code sent at sign-up, typed on /verify-phone after
 * logging in (errors at the code field, the resend countdown), and the owner of a number an
 * unproven account holds proving it from the signup screen. On an API process and a database of
 * their own with no SMS gateway: the codes are read from its log, where the offline default puts
 * them. Screenshots at phone and desktop sizes in English and Arabic.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phoneCodesIn, startApiOnOwnDatabase, type ApiProcess } from "../support/api-process";
import { Client, uniquePhone } from "../support/client";
import { keepFailureScreenshots, launch, screenshot, seriousViolations, setLanguage as setPageLanguage } from "./browser";

const PASSWORD = "secret-pass";
let api: ApiProcess;
let browser: Browser;
let page: Page;
/** The next code the API wrote to its log for a phone (no gateway is configured). */
const loggedCode = phoneCodesIn(() => api);

const setLanguage = (target: "en" | "ar") => setPageLanguage(page, target);

/** The card fits the width, then a full-page shot from the top, at phone and desktop sizes, in both languages. */
async function shots(name: string, ready: () => Promise<unknown>, fits = ".auth-card") {
  for (const language of ["en", "ar"] as const) {
    await setLanguage(language);
    await ready();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe(language === "ar" ? "rtl" : "ltr");
    for (const [width, height] of [
      [390, 844],
      [1366, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => window.scrollTo(0, 0));
      const box = await page.locator(fits).first().boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      await screenshot(page, `${name}-${width}-${language}`);
    }
  }
  await setLanguage("en");
}

beforeAll(async () => {
  api = await startApiOnOwnDatabase("storefront_verify_phone", { LOG_LEVEL: "info" });
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
});

keepFailureScreenshots(() => page);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

describe("proving the phone number (web)", () => {
  const phone = uniquePhone();

  it("sends the code at sign-up and asks for it after logging in, with errors at the code field", async () => {
    await page.goto(`${api.url}/signup`);
    await page.getByLabel("Phone number").fill(phone);
    await page.getByLabel("Password (minimum 6 characters)").fill(PASSWORD);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.waitForURL(/\/login$/u, { timeout: 6000 });
    await page.getByLabel("Phone number").fill(phone);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/dashboard$/u);

    await shots(
      "dashboard-phone-unproven",
      () => page.getByTestId("phone-proof-notice").waitFor(),
      "[data-testid=phone-proof-notice]",
    );
    await page.goto(`${api.url}/profile`);
    await shots("profile-phone-unproven", () => page.getByTestId("phone-proof-notice").waitFor(), ".profile-card");
    await page.getByTestId("phone-proof-notice").getByRole("link", { name: "Prove it" }).click();
    await page.waitForURL(/\/verify-phone$/u);
    const form = page.getByTestId("verify-phone-form");
    await form.getByTestId("code-sent").waitFor();
    expect(await form.getByTestId("code-sent").innerText()).toContain(phone);
    // The code went out at sign-up: another one only after the countdown.
    expect(await form.getByTestId("send-code").isDisabled()).toBe(true);
    expect(await form.getByTestId("send-code").innerText()).toMatch(/Send a new code in \d+ s/u);
    const code = await loggedCode(phone);

    await form.getByLabel("Code from the SMS").fill("12");
    await form.getByRole("button", { name: "Prove my number" }).click();
    await form.locator(".field-error", { hasText: "Enter the 6 digits of the code." }).waitFor();
    await form.getByLabel("Code from the SMS").fill(code === "000000" ? "111111" : "000000");
    await form.getByRole("button", { name: "Prove my number" }).click();
    await form.locator(".field-error", { hasText: "This code is not right." }).waitFor();
    expect(await form.getByLabel("Code from the SMS").getAttribute("aria-invalid")).toBe("true");
    expect(await seriousViolations(page)).toEqual([]);

    await shots("verify-phone", () => page.getByTestId("verify-phone-form").waitFor());
    await setLanguage("ar");
    // The number reads left to right inside the Arabic sentence: its "+" is left of its first digit.
    const [plus, first] = await form
      .getByTestId("code-sent")
      .locator("bdi")
      .evaluate((bdi) => {
        const range = document.createRange();
        const at = (i: number) => (
          range.setStart(bdi.firstChild!, i),
          range.setEnd(bdi.firstChild!, i + 1),
          range.getBoundingClientRect().x
        );
        return [at(0), at(1)];
      });
    expect(plus).toBeLessThan(first!);
    await form.getByRole("button", { name: "أثبت رقمي" }).click();
    await form.locator(".field-error", { hasText: "هذا الرمز غير صحيح" }).waitFor();
    await setLanguage("en");

    await form.getByLabel("Code from the SMS").fill(code);
    await form.getByRole("button", { name: "Prove my number" }).click();
    await page.waitForURL(/\/dashboard$/u);
    await page.getByText("Your phone number is proven.").first().waitFor();
    expect(await page.getByTestId("phone-proof-notice").count()).toBe(0);
  });

  it("lets the owner of a number an unproven account holds prove it from the signup screen", async () => {
    const squatted = uniquePhone();
    expect((await new Client(api.url).post("/signup.php", { phone: squatted, password: "squatter-pass" })).status).toBe(201);
    const visitor = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    const previous = page;
    page = visitor;
    try {
      await page.goto(`${api.url}/signup`);
      await page.getByLabel("Phone number").fill(squatted);
      await page.getByLabel("Password (minimum 6 characters)").fill("owner-pass");
      await page.getByRole("button", { name: "Subscribe" }).click();
      await page.getByText("This phone number is already subscribed.").first().waitFor();
      await page.getByTestId("claim-number").click();
      await page.waitForURL(/\/verify-phone$/u);
      await page.getByRole("heading", { name: "Is this your number?" }).waitFor();
      await page.getByTestId("send-code").click();
      await page.getByTestId("code-sent").waitFor();
      await shots("verify-phone-claim", () => page.getByTestId("verify-phone-form").waitFor());

      await page.getByLabel("Code from the SMS").fill(await loggedCode(squatted));
      await page.getByRole("button", { name: "Prove my number" }).click();
      await page.waitForURL(/\/login$/u);
      await page.getByLabel("Phone number").fill(squatted);
      await page.getByLabel("Password", { exact: true }).fill("owner-pass");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/dashboard$/u);
      await page.locator(".tool-card").first().waitFor();
      expect(await page.getByTestId("phone-proof-notice").count()).toBe(0);

      // The account that held it signs in as before and is asked to prove a number of its own.
      await page.getByRole("button", { name: "Sign out" }).first().click();
      await page.waitForURL(/\/login$/u, { timeout: 6000 });
      await page.getByLabel("Phone number").fill(squatted);
      await page.getByLabel("Password", { exact: true }).fill("squatter-pass");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/dashboard$/u);
      await page.getByTestId("phone-proof-notice").getByRole("link", { name: "Prove it" }).click();
      await page.getByRole("heading", { name: "Your number was proven by its owner" }).waitFor();
      await page.getByLabel("Phone number to prove").waitFor();
      await shots("verify-phone-released", () => page.getByLabel(/Phone number to prove|رقم الهاتف المراد إثباته/u).waitFor());
      expect(await seriousViolations(page)).toEqual([]);

      // The shared phone field: the configured country's code, the number checked as typed, sent in E.164.
      const form = page.getByTestId("verify-phone-form");
      expect(await form.getByLabel("Country code").inputValue()).toBe("US");
      await form.getByLabel("Phone number to prove").fill("12");
      await form.getByTestId("send-code").click();
      await form.locator(".field-error").first().waitFor();
      expect(await form.getByLabel("Phone number to prove").getAttribute("aria-invalid")).toBe("true");
      const own = uniquePhone();
      await form.getByLabel("Phone number to prove").fill(own.slice(2));
      await form.getByTestId("send-code").click();
      await form.getByTestId("code-sent").waitFor();
      expect(await form.getByTestId("code-sent").innerText()).toContain(own);
      await shots("verify-phone-released-sent", () => form.getByTestId("code-sent").waitFor());
      // On a phone (mobile emulation: touch, device pixels): the country choice and the number fit beside each other.
      const phone = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 3,
        storageState: await page.context().storageState(),
      });
      try {
        const onPhone = await phone.newPage();
        await onPhone.goto(`${api.url}/verify-phone`);
        for (const language of ["en", "ar"] as const) {
          if (language === "ar") await onPhone.getByTestId("language-toggle").first().click();
          await onPhone.waitForFunction((lang) => document.documentElement.lang === lang, language);
          const field = onPhone.getByLabel(/Phone number to prove|رقم الهاتف المراد إثباته/u);
          await field.waitFor();
          const [row, card] = await Promise.all([
            onPhone.locator(".phone-field__row").boundingBox(),
            onPhone.locator(".auth-card").boundingBox(),
          ]);
          expect(row!.x).toBeGreaterThanOrEqual(card!.x);
          expect(row!.x + row!.width).toBeLessThanOrEqual(card!.x + card!.width);
          await screenshot(onPhone, `verify-phone-released-mobile-390-${language}`);
        }
      } finally {
        await phone.close();
      }
      await form.getByLabel("Code from the SMS").fill(await loggedCode(own));
      await form.getByRole("button", { name: "Prove my number" }).click();
      await page.waitForURL(/\/dashboard$/u);
      expect(await page.getByTestId("phone-proof-notice").count()).toBe(0);
    } finally {
      page = previous;
      await visitor.close();
    }
  });
});
