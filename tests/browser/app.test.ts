/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminClient, giveCoins, provenInDatabase, uniquePhone } from "../support/client";
import { useDatabase } from "../integration/admin-helpers";
import { keepFailureScreenshots, launch, screenshot, seriousViolations, setLanguage, watchCsp } from "./browser";

const baseUrl = inject("baseUrl");
// Packages are charged to the subscriber's number: the buyer's is proven in the database.
useDatabase();
const password = "browser-pass-1";
let browser: Browser;
let context: BrowserContext;
let page: Page;
let phone: string;
let userId: string;

/** Content-Security-Policy violations met on any screen of this suite (docs/security.md). */
let cspViolations: string[] = [];

beforeAll(async () => {
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  cspViolations = await watchCsp(page);
  page.on("console", (m) => {
    if (m.type() === "error") console.error(`console: ${m.text().slice(0, 300)}`);
  });
  page.on("pageerror", (error) => console.error(`page error: ${error.stack?.split("\n").slice(0, 12).join("\n")}`));
});

keepFailureScreenshots(() => page);

afterAll(async () => {
  await browser?.close();
});

describe("subscriber web app", () => {
  it("shows Access Denied to visitors and sends the text chat to /login", async () => {
    const visitor = await browser.newContext();
    const p = await visitor.newPage();
    await p.goto(`${baseUrl}/dashboard`);
    await expect(p.getByRole("heading", { name: "Access Denied" }).waitFor()).resolves.toBeUndefined();
    await p.getByText("You don't have permission to access this page. Please log in to continue.").waitFor();
    await p.getByText("If you believe this is an error, please contact support or try logging in again.").waitFor();
    // Remembered by the guard's effect, which may run a moment after Access Denied is drawn.
    await expect
      .poll(() => p.evaluate(() => sessionStorage.getItem("redirectAfterLogin")), { timeout: 10_000 })
      .toBe("/dashboard");
    expect(await seriousViolations(p)).toEqual([]);
    await screenshot(p, "access-denied-en");
    await p.goto(`${baseUrl}/text-ai`);
    await p.waitForURL(/\/login$/u);
    await p.getByText("Please log in to use Text AI").waitFor();
    await p.goto(`${baseUrl}/no-such-page`);
    await p.waitForURL(`${baseUrl}/`);
    await visitor.close();
  });

  it("signs up, shows the subscribed state and goes to /login after 3 s", async () => {
    phone = uniquePhone();
    await page.goto(`${baseUrl}/`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "home-en");
    await page.getByRole("link", { name: "Get started" }).first().click();
    await page.waitForURL(/\/signup$/u);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "signup-en");
    await page.getByLabel("Phone number").fill(phone);
    await page.getByLabel("Password (minimum 6 characters)").fill(password);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByTestId("subscribed-notice").waitFor();
    await page.waitForURL(/\/login$/u, { timeout: 6000 });
  });

  it("logs in with 'Signing in...' and lands on the dashboard", async () => {
    await page.goto(`${baseUrl}/login`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "login-en");
    await page.getByLabel("Phone number").fill(phone);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/dashboard$/u);
    userId = await page.evaluate(async () => {
      const res = await fetch("/api/session-check-simple.php", { credentials: "include" });
      return ((await res.json()) as { user: { id: string } }).user.id;
    });
    await page.getByTestId("wallet-coins").waitFor();
    // No reload: the "wallet:updated" push refreshes the badge live.
    await giveCoins(userId, 5000, 3);
    await expect.poll(() => page.getByTestId("wallet-coins").textContent(), { timeout: 10_000 }).toContain("5,000");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "dashboard-en");
  });

  it("reads the balance again when the live connection comes back: a change pushed while it was down is not missed", async () => {
    // The browser goes offline, so the socket closes and the push below reaches no one.
    await page.context().setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    await giveCoins(userId, 4000, 3);
    await page.context().setOffline(false);
    await expect.poll(() => page.getByTestId("wallet-coins").textContent(), { timeout: 15_000 }).toContain("4,000");
    await giveCoins(userId, 5000, 3);
    await expect.poll(() => page.getByTestId("wallet-coins").textContent(), { timeout: 10_000 }).toContain("5,000");
  });

  it("lays the dashboard grid out in 3, 2 and 1 columns at 1200, 1000 and 600 px", async () => {
    const columns = async (width: number) => {
      await page.setViewportSize({ width, height: 900 });
      return page
        .getByTestId("tool-grid")
        .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").filter(Boolean).length);
    };
    expect(await columns(1200)).toBe(3);
    expect(await columns(1000)).toBe(2);
    expect(await columns(600)).toBe(1);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("switches to Arabic (rtl) and back", async () => {
    await setLanguage(page, "ar");
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await page.evaluate(() => localStorage.getItem("language"))).toBe("ar");
    await screenshot(page, "dashboard-ar");
    expect(await seriousViolations(page)).toEqual([]);
    await setLanguage(page, "en");
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("ltr");
  });

  it("uses the text chat once", async () => {
    await page.goto(`${baseUrl}/text-ai`);
    await page.getByText("How can I help you today?").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "text-ai-en");
    const input = page.getByLabel("Message", { exact: true });
    await input.fill("Hello there, what can you do?");
    await input.press("Enter");
    await page.getByTestId("message-user").first().waitFor();
    await page.getByTestId("message-ai").first().waitFor({ timeout: 30_000 });
    expect((await page.getByTestId("message-ai").first().textContent())?.length).toBeGreaterThan(0);
    // The first message's charge (ceil(29 / 4) = 8) is filed under the thread once it is saved.
    await page.getByRole("complementary").getByText("8 coins spent").waitFor();
    await screenshot(page, "text-ai-chat-en");
  });

  it("keeps the open chat over a reload, starts a new one with Ctrl+N, switches persona after a confirm, searches and deletes", async () => {
    // The thread of the test before is open, and comes back after a reload (its id is kept in storage).
    const question = "Hello there, what can you do?";
    const thread = page.locator("main");
    const history = page.getByRole("complementary");
    await page.reload();
    await thread.getByText(question).waitFor();
    await page.keyboard.press("Control+n");
    await page.getByText("How can I help you today?").waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("text-ai-input");
    await page.reload();
    await page.getByText("How can I help you today?").waitFor();
    await history.getByRole("button", { name: /^Hello there, what can you do\?/u }).click();
    await thread.getByText(question).waitFor();

    // The first persona ever picked is taken as it is; a later one, with a conversation open, asks
    // first, then starts a new chat and says so.
    const picker = page.getByRole("dialog", { name: "Choose your AI assistant" });
    const pick = async (name: RegExp) => {
      await page.getByTestId("persona-button").click();
      expect(await picker.getByRole("button", { name: "Confirm" }).isDisabled()).toBe(true);
      await picker.getByRole("radio", { name }).click();
      await picker.getByRole("button", { name: "Confirm" }).click();
    };
    await pick(/^Chef/u);
    await page.getByRole("button", { name: "Chef: choose your assistant" }).waitFor();
    expect(await thread.getByText(question).count()).toBe(1);
    await pick(/^Gym Trainer/u);
    await page.getByRole("dialog", { name: "Change Agent" }).getByRole("button", { name: "Yes" }).click();
    await page.getByText("Switched to Gym Trainer. New chat started.").waitFor();
    await page.getByText("How can I help you today?").waitFor();
    await page.getByRole("button", { name: "Gym Trainer: choose your assistant" }).waitFor();

    const search = history.getByRole("searchbox", { name: "Search conversations" });
    await search.fill("no such words");
    await history.getByText("No conversations match your search").waitFor();
    await search.fill("hello");
    await history.getByRole("button", { name: `Delete conversation: ${question}` }).click();
    await page.getByRole("dialog", { name: "Delete Conversation" }).getByRole("button", { name: "Delete" }).click();
    await history.getByText("No conversations match your search").waitFor();
    await search.fill("");
    await history.getByText("No conversations yet").waitFor();
  });

  it("sets a daily cap on My usage; a chat past it names the cap and links back to change it", async () => {
    await page.goto(`${baseUrl}/usage`);
    const limits = page.getByTestId("spending-limits");
    await limits.getByText(/Spent today: \d+ coins \(no daily cap\)/u).waitFor();
    await limits.getByLabel("Daily spending cap (coins)").fill("0");
    await limits.getByRole("button", { name: "Save limits" }).click();
    await limits.getByText("Enter a whole number from 1 to 1,000,000, or leave it empty.").waitFor();
    await limits.getByLabel("Daily spending cap (coins)").fill("9");
    await limits.getByRole("button", { name: "Save limits" }).click();
    await page.getByText("Your spending limits are saved.").waitFor();
    await limits.getByText(/Spent today: \d+ of 9 coins\./u).waitFor();
    // The low-balance notice by SMS too: saved with the limits, and shown as saved after a reload.
    const sms = limits.getByLabel("Also send it to my phone by SMS");
    expect(await sms.isChecked()).toBe(false);
    await sms.check();
    const saved = page.waitForResponse((r) => r.url().endsWith("/wallet/settings.php") && r.request().method() === "PUT");
    await limits.getByRole("button", { name: "Save limits" }).click();
    expect(((await (await saved).json()) as { settings: { smsAlerts: boolean } }).settings.smsAlerts).toBe(true);
    await page.reload();
    await limits.getByText(/Spent today: \d+ of 9 coins\./u).waitFor();
    expect(await limits.getByLabel("Also send it to my phone by SMS").isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "usage-limits-en");

    await page.goto(`${baseUrl}/text-ai`);
    const input = page.getByLabel("Message", { exact: true });
    await input.fill("Tell me everything about the history of bread, please");
    await input.press("Enter");
    const refusal = page.getByTestId("text-ai-short");
    await refusal.getByText(/daily spending cap of 9 coins/u).waitFor();
    // The refusal belongs to that question: a new chat leaves it behind.
    await page.keyboard.press("Control+n");
    await refusal.waitFor({ state: "detached" });
    await input.fill("Tell me everything about the history of bread, please");
    await input.press("Enter");
    await refusal.getByText(/daily spending cap of 9 coins/u).waitFor();
    await refusal.getByRole("link", { name: "Change my daily cap" }).click();
    await page.waitForURL(/\/usage$/u);
    await limits.getByLabel("Daily spending cap (coins)").fill("");
    await limits.getByRole("button", { name: "Save limits" }).click();
    await limits.getByText(/\(no daily cap\)/u).waitFor();
  });

  it("answers an SMS with the local engine and keeps the 400 character limit", async () => {
    await page.goto(`${baseUrl}/sms-ai`);
    await page.getByLabel("Message", { exact: true }).fill("hello");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("sms-assistant").first().waitFor();
    await page.getByLabel("Message", { exact: true }).fill("x".repeat(401));
    expect(await page.getByTestId("sms-counter").textContent()).toBe("401 / 400");
  });

  it("shows the Doctor counter past 80% and blocks messages over 2000 characters", async () => {
    await page.goto(`${baseUrl}/doctor`);
    const box = page.getByLabel("Your message to the Doctor");
    // The price line is the server's own function: words, and never under one per 6 characters.
    await box.fill("I have a headache, and a fever.");
    expect(await page.getByTestId("doctor-cost").textContent()).toBe("This message costs 7 coins");
    await box.fill("a".repeat(1700));
    await page.getByText("1,700 / 2,000 characters").waitFor();
    expect(await page.getByTestId("doctor-cost").textContent()).toBe("This message costs 283 coins");
    await box.fill("a".repeat(2001));
    await page.getByText("Message is too long. Please shorten your message.").waitFor();
    expect(await page.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
  });

  it("asks the Doctor once and lists the consultation", async () => {
    await page.goto(`${baseUrl}/doctor`);
    await page.getByRole("button", { name: "I have a headache" }).click();
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("message-ai").first().waitFor({ timeout: 30_000 });
    await page.getByRole("complementary").getByText("[Doctor] I have a headache").waitFor();
    await screenshot(page, "doctor-chat-en");
    // The stored "[Doctor]" mark is shown with the Arabic prefix on an Arabic screen.
    await setLanguage(page, "ar");
    await page.getByRole("complementary").getByText("[الطبيب] I have a headache").waitFor();
    expect(await page.getByRole("complementary").innerText()).not.toContain("[Doctor]");
    await setLanguage(page, "en");
    // A new consultation empties the thread; the search reads the last message too; a listed one opens.
    const consultations = page.getByRole("complementary");
    await consultations.getByRole("button", { name: "New consultation" }).click();
    await page.getByText("How are you feeling today?").waitFor();
    const reply = (await consultations.locator(".conversation-sidebar__item-detail span[dir=auto]").first().innerText()).replace(
      /^\s*·\s*/u,
      "",
    );
    const search = consultations.getByRole("searchbox", { name: "Search consultations" });
    await search.fill("no such words");
    await consultations.getByText("No consultations yet").waitFor();
    await search.fill(reply.split(" ").slice(1, 4).join(" "));
    await consultations.getByRole("button", { name: /I have a headache/u }).click();
    await page.getByTestId("message-user").getByText("I have a headache").waitFor();
    await search.fill("");
  });

  it("streams the Doctor's reply while the answer is still on its way, with Stop, then keeps the whole reply", async () => {
    await page.goto(`${baseUrl}/doctor`);
    // Words pushed before the page's live connection is up are not replayed (the HTTP answer brings them).
    await page.locator("main[data-live=on]").waitFor();
    // The HTTP answer is held back until the pushed words have been seen on screen.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/textai/chat.php", async (route) => {
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    });
    await page.getByLabel("Your message to the Doctor").fill("I have had a fever since yesterday");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const pending = page.getByTestId("doctor-pending");
    await pending.getByRole("button", { name: "Stop" }).waitFor();
    await pending.locator("span[dir=auto]").waitFor();
    const streamed = await pending.locator("span[dir=auto]").innerText();
    expect(streamed.trim().length).toBeGreaterThan(0);
    expect(await page.getByRole("progressbar").count()).toBe(1);
    release();
    const reply = page.getByTestId("message-ai").last();
    await reply.waitFor();
    await pending.waitFor({ state: "detached" });
    expect((await reply.innerText()).startsWith(streamed.trim().slice(0, 10))).toBe(true);
    await page.unroute("**/api/textai/chat.php");
  });

  it("generates an image, lists it and offers view and download", async () => {
    await page.goto(`${baseUrl}/image-ai`);
    await page.getByLabel("Prompt", { exact: true }).fill("a red bicycle by the sea");
    await page.getByRole("button", { name: "Generate image" }).click();
    await page.getByText("Image generated successfully!").waitFor({ timeout: 30_000 });
    await page.getByRole("img", { name: "Generated image: a red bicycle by the sea" }).waitFor();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download" }).first().click();
    expect((await download).suggestedFilename()).toMatch(/^ai-image-\d+\.png$/u);
    await screenshot(page, "image-ai-result-en");
  });

  it("edits an uploaded picture: refuses a file that is not an image, previews the picture, edits it, and Reset empties the form", async () => {
    await page.goto(`${baseUrl}/image-ai`);
    await page.getByRole("radio", { name: "Edit", exact: true }).click();
    const file = page.getByLabel("Image to edit");
    await file.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
    await page.getByText("Please select a valid image file").waitFor();
    // A 1x1 PNG.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    await file.setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: png });
    await page.getByRole("img", { name: "Preview of the image to edit" }).waitFor();
    expect(await page.getByText("Please select a valid image file").count()).toBe(0);
    await page.getByLabel("Prompt", { exact: true }).fill("make it blue");
    await page.getByRole("button", { name: "Edit image" }).click();
    await page.getByText("Image generated successfully!").waitFor({ timeout: 30_000 });
    await page.getByRole("img", { name: "Generated image: make it blue" }).waitFor();
    await page.getByRole("button", { name: "Reset" }).click();
    expect(await page.getByRole("img", { name: "Preview of the image to edit" }).count()).toBe(0);
    expect(await file.inputValue()).toBe("");
    expect(await page.getByLabel("Prompt", { exact: true }).inputValue()).toBe("");
  });

  it("starts a video, shows its status and lists it under My Videos", async () => {
    await page.goto(`${baseUrl}/video-test`);
    // The price in coins (what is charged) before Generate, the dollar price second, and the balance.
    expect(await page.getByTestId("video-cost").textContent()).toBe("Cost: 1,000 coins ($1.000 provider price)");
    await page.getByTestId("video-balance").filter({ hasText: "Your balance:" }).waitFor();
    await page.locator(".video-page .wallet-badge").waitFor();
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    expect(await page.getByTestId("video-status").textContent()).toBe("❌ Please enter a prompt");
    await page.getByLabel("Prompt", { exact: true }).fill("waves rolling onto a beach at sunset");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await page.getByText("Video generation started!").waitFor({ timeout: 15_000 });
    await page.getByText("✅ Video generation completed!").waitFor({ timeout: 60_000 });
    await screenshot(page, "video-completed-en");
    await page.getByRole("tab", { name: "My Videos" }).click();
    await page.getByText("1 video", { exact: true }).waitFor();
  });

  it("saves the profile's display name and country, typed before the stored profile arrived", async () => {
    // The stored profile answers only after the fields are filled in: it must not wipe them.
    let releaseProfile = () => {};
    const profileHeld = new Promise<void>((resolve) => (releaseProfile = resolve));
    await page.route("**/api/user/profile.php*", async (route) => {
      await profileHeld;
      await route.continue();
    });
    await page.goto(`${baseUrl}/profile`);
    expect(await page.getByLabel("Phone number").getAttribute("readonly")).not.toBeNull();
    await page.getByLabel("Display name").fill("Browser Tester");
    await page.getByLabel("Country").selectOption("EG");
    const answered = page.waitForResponse("**/api/user/profile.php*");
    releaseProfile();
    await answered;
    await page.unroute("**/api/user/profile.php*");
    expect(await page.getByLabel("Display name").inputValue()).toBe("Browser Tester");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Profile updated successfully!").waitFor();
    await page.reload();
    await page.getByLabel("Display name").waitFor();
    await expect.poll(() => page.getByLabel("Display name").inputValue(), { timeout: 10_000 }).toBe("Browser Tester");
  });

  it("buys a package on Get coins: confirm, coins added, the badge and the list follow", async () => {
    const admin = await adminClient();
    const name = `Browser pack ${Date.now()}`;
    expect(
      (await admin.post("/admin/wallet-packages-simple.php", { name, coins: 250, price: 2.5, subscription_type: "weekly" }))
        .status,
    ).toBe(201);
    await provenInDatabase({ id: userId });
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByTestId("get-coins-link").first().click();
    await page.waitForURL(/\/get-coins$/u);
    const before = Number((await page.getByTestId("wallet-coins").innerText()).replace(/\D/gu, ""));
    await page.getByRole("button", { name: `Buy ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Buy this package?" });
    await dialog.getByText(`${name}: 250 coins for $2.50 (Weekly)`, { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Buy now" }).click();
    await page.getByText(`250 coins added (${name})`).waitFor();
    await page.waitForFunction(
      (expected) => document.querySelector("[data-testid=wallet-coins]")?.textContent?.replace(/\D/gu, "") === String(expected),
      before + 250,
    );
    await page.getByRole("heading", { name: "Your packages" }).waitFor();
    await page.getByLabel("Renew automatically").first().waitFor();
    await screenshot(page, "get-coins-bought-en");
  });

  it("redeems a code on Get coins, and names a code used twice", async () => {
    const admin = await adminClient();
    const made = await admin.post("/admin/redemption-codes.php", {
      label: "Browser",
      count: 1,
      coins: 40,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(made.status).toBe(201);
    const code = made.body.codes[0] as string;
    await page.goto(`${baseUrl}/get-coins`);
    const form = page.getByTestId("redeem-form");
    await form.getByLabel("Have a code? Redeem it for coins").fill(code.toLowerCase());
    await form.getByRole("button", { name: "Redeem" }).click();
    await page.getByText("40 coins added").waitFor();
    await form.getByLabel("Have a code? Redeem it for coins").fill(code);
    await form.getByRole("button", { name: "Redeem" }).click();
    await form.getByText("You have already redeemed this code.").waitFor();
    await form.getByLabel("Have a code? Redeem it for coins").fill("12345");
    await form.getByRole("button", { name: "Redeem" }).click();
    await form.getByText("A code has 20 letters and digits", { exact: false }).waitFor();
  });

  it("signs out to /login and forgets the attempted URL", async () => {
    await page.goto(`${baseUrl}/dashboard`);
    await page.evaluate(() => sessionStorage.setItem("redirectAfterLogin", "/profile"));
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/login$/u, { timeout: 5000 });
    expect(await page.evaluate(() => sessionStorage.getItem("redirectAfterLogin"))).toBeNull();
  });
});

describe("content security policy", () => {
  it("met no violation on any screen of this suite", () => {
    expect(cspViolations).toEqual([]);
  });
});
