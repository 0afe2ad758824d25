/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Focused checks of the phone-sized behaviours: drawers, the SMS thread's scroll, a 402 explained
 * (and not saved) on the Doctor, toasts clear of the header, and the password change.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { newUser, type Client } from "../support/client";
import { keepFailureScreenshots, launch, screenshot } from "./browser";

const baseUrl = inject("baseUrl");
let browser: Browser;
let context: BrowserContext;
let page: Page;
let user: { client: Client; id: string; phone: string };

beforeAll(async () => {
  browser = await launch();
  user = await newUser("phones-pass-1");
  context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addCookies(
    user.client
      .cookieHeader()
      .split("; ")
      .map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1), url: baseUrl })),
  );
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
});

keepFailureScreenshots(() => page);

afterAll(async () => {
  await browser?.close();
});

const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "");

describe("at 390 px wide", () => {
  for (const screen of [{ path: "/image-ai" }, { path: "/text-ai" }, { path: "/doctor" }]) {
    it(`${screen.path}: the drawer has a close button, an overlay, Escape, a focus trap and gives focus back`, async () => {
      await page.goto(`${baseUrl}${screen.path}`);
      const toggle = page.locator("button.icon-button[aria-expanded]").first();
      await toggle.waitFor();
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      const drawer = page.getByRole("dialog");

      await toggle.click();
      await drawer.waitFor();
      // Focus moved into the drawer and Tab keeps it there.
      expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      for (let i = 0; i < 25; i += 1) await page.keyboard.press("Tab");
      expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await screenshot(page, `phone/en/${screen.path.slice(1)}-drawer`);

      await page.keyboard.press("Escape");
      await drawer.waitFor({ state: "hidden" });
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-expanded"))).toBe("false");

      await toggle.click();
      await page.getByTestId("drawer-overlay").click({ position: { x: 380, y: 400 } });
      await drawer.waitFor({ state: "hidden" });

      await toggle.click();
      await drawer.getByRole("button", { name: "Close panel" }).click();
      await drawer.waitFor({ state: "hidden" });
      expect(await focusedLabel()).not.toBe("Close panel");
    });
  }

  it("keeps the back button, wallet and language toggle on the paid chat screens", async () => {
    for (const path of ["/text-ai", "/image-ai", "/doctor", "/video-test", "/sms-ai"]) {
      await page.goto(`${baseUrl}${path}`);
      await page.locator("main").first().waitFor();
      // Waited for, not read once: the header's controls may come a moment after the screen's main.
      for (const control of [
        page.locator("header .back-button"),
        page.locator("header .wallet-badge"),
        page.getByTestId("language-toggle"),
      ]) {
        await control
          .first()
          .waitFor()
          .catch((error: Error) => {
            throw new Error(`${path}: ${error.message}`);
          });
      }
    }
  });

  it("keeps the newest SMS in view, but not while the user reads older ones", async () => {
    await page.goto(`${baseUrl}/sms-ai`);
    const thread = page.getByTestId("sms-thread");
    const box = page.getByLabel("Message", { exact: true });
    const atBottom = () => thread.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 4);
    const replies = page.getByTestId("sms-assistant");
    for (let i = 1; i <= 8; i += 1) {
      await box.fill(`hello number ${i}`);
      await page.getByRole("button", { name: "Send", exact: true }).click();
      // The reply is waited for as a locator waits (a poll's own default, 1 s, is short in a loaded run).
      await replies.nth(i - 1).waitFor();
      expect(await replies.count()).toBe(i);
    }
    expect(await thread.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await expect.poll(atBottom, { timeout: 10_000 }).toBe(true);

    await thread.evaluate((el) => el.scrollTo({ top: 0 }));
    await thread.dispatchEvent("scroll");
    await box.fill("one more");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await replies.nth(8).waitFor();
    expect(await replies.count()).toBe(9);
    expect(await thread.evaluate((el) => el.scrollTop)).toBe(0);
    expect(await page.getByTestId("sms-backend-hint").textContent()).toMatch(/^Off:/u);
    await page.getByText("Use backend AI").click();
    expect(await page.getByTestId("sms-backend-hint").textContent()).toMatch(/^On:/u);
    await page.getByText("Use backend AI").click();
  });

  it("explains a Doctor 402 with the price and the balance, and saves no consultation", async () => {
    await page.goto(`${baseUrl}/doctor`);
    await page.getByLabel("Your message to the Doctor").fill("I have a headache");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const failure = page.getByTestId("doctor-failure");
    await failure.waitFor({ timeout: 20_000 });
    expect(await failure.textContent()).toMatch(/^Insufficient coins! You need \d[\d,]* tokens but have 0\. Get coins$/u);
    expect(await page.getByLabel("Your message to the Doctor").inputValue()).toBe("I have a headache");
    expect(await page.getByTestId("message-ai").count()).toBe(0);
    const list = await user.client.get(`/conversations/list.php?userId=${user.id}&kind=doctor`);
    expect(list.body.conversations ?? []).toEqual([]);
    await screenshot(page, "phone/en/doctor-402");
    // The way to coins is right there.
    await failure.getByRole("link", { name: "Get coins" }).click();
    await page.waitForURL(/\/get-coins$/u);
  });

  it("shows toasts where they cover none of the header's controls, with a close button", async () => {
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole("button", { name: "Open Voice AI" }).click();
    const toast = page.locator(".toast").first();
    await toast.waitFor();
    const overlaps = await page.evaluate(() => {
      const toastBox = document.querySelector(".toasts")!.getBoundingClientRect();
      return [...document.querySelectorAll("header button, header a")]
        .map((el) => ({ el, r: el.getBoundingClientRect() }))
        .filter(
          ({ r }) => r.left < toastBox.right && r.right > toastBox.left && r.top < toastBox.bottom && r.bottom > toastBox.top,
        )
        .map(({ el }) => el.textContent);
    });
    expect(overlaps).toEqual([]);
    expect(await page.locator(".toasts").getAttribute("aria-live")).toBe("polite");
    await toast.getByRole("button", { name: "Dismiss" }).click();
    await toast.waitFor({ state: "detached" });
  });

  it("changes the password from Profile and names the wrong current password", async (ctx) => {
    const probe = await user.client.post("/user/change-password.php", {});
    if (probe.status === 404) ctx.skip();
    await page.goto(`${baseUrl}/profile`);
    const form = page.getByTestId("change-password");
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByText("Please enter your current password").waitFor();
    await form.getByLabel("Current password").fill("wrong-pass-1");
    expect(await form.getByText("Please enter your current password").count()).toBe(0);
    await form.getByLabel("New password").fill("phones-pass-2");
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByText("The current password is not correct").waitFor();
    await form.getByLabel("Current password").fill("phones-pass-1");
    await form.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Password changed. Your other sessions were signed out.").waitFor();
    const login = await new (user.client.constructor as new () => Client)().post("/login-session-fix.php", {
      phone: user.phone,
      password: "phones-pass-2",
    });
    expect(login.status).toBe(200);
  });
});
