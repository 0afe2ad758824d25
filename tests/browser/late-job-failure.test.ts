/// <reference lib="dom" />
/**
 * A job the screen stopped waiting for (its call answered 503 with `queued: true` after a worker
 * froze, or 504 while the job carried on) and which then failed: the screen shows the real
 * "job:failed" push, in the reader's language, and the 503 itself says the coins came back and the
 * request is still queued. The 503/504 answers are the API's bodies (api/src/services/frozen-workers.ts,
 * api/src/job-waiter.ts; tests/integration/frozen-worker.test.ts produces the 503 with a real frozen
 * worker), given by the page's router; the push goes through the stack's Redis, the API's Socket.IO
 * adapter and the page's socket, as a worker's does.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MESSAGES, type ServerEvents } from "@storefront/shared";
import { Pusher } from "@storefront/shared/server";
import { giveCoins, newUser } from "../support/client";
import { cookiesOf, keepFailureScreenshots, launch } from "./browser";
import { LATE_TEXT, lateAnswer, pushUntil, queuedAnswer } from "./late-jobs";

const baseUrl = inject("baseUrl");
let browser: Browser;
let context: BrowserContext;
let page: Page;
let redis: Redis;
let pusher: Pusher;
let userId: string;

beforeAll(async () => {
  const user = await newUser();
  userId = user.id;
  await giveCoins(userId, 500);
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  pusher = new Pusher(redis);
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addCookies(cookiesOf(user.client, baseUrl));
  await context.addInitScript(() => localStorage.setItem("language", "en"));
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
});

keepFailureScreenshots(() => page);

afterAll(async () => {
  await browser?.close();
  redis?.disconnect();
});

/** Pushes `event` until `shown` appears. */
const pushFailure = (event: ServerEvents["job:failed"], shown: () => Promise<unknown>) =>
  pushUntil(pusher, userId, "job:failed", event, shown);

async function setLanguage(target: "en" | "ar") {
  await page.getByTestId("language-toggle").first().click();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, target);
}

describe("a job that fails after its call ended", () => {
  it("the Doctor says the coins came back, then shows the refusal when the queued question runs, in English and Arabic", async () => {
    await page.route("**/api/textai/chat.php", (route) => route.fulfill(queuedAnswer("chat-late-doctor")));
    await page.goto(`${baseUrl}/doctor`);
    // The whole label shows inside the sidebar at 1366 px (it ran past its edge, cut, before).
    const button = page.getByRole("button", { name: "New consultation" });
    const [box, aside] = [await button.boundingBox(), await page.locator("aside").boundingBox()];
    expect(box!.x + box!.width).toBeLessThanOrEqual(aside!.x + aside!.width - 16);
    expect(await button.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);

    await page.getByLabel("Your message to the Doctor").fill("I have had a headache for two days");
    await page.getByLabel("Your message to the Doctor").press("Enter");
    const failure = page.getByTestId("doctor-failure");
    await failure
      .filter({
        hasText: "Your coins were returned; your request is still queued and will run, and be charged, when the service is back.",
      })
      .waitFor();
    await page.locator("[data-live=on]").waitFor();

    await pushFailure(
      {
        jobId: "chat-late-doctor",
        queue: "chat",
        code: "insufficient_coins",
        error: MESSAGES.insufficientCoins,
        refunded: 0,
        needed: 12,
        available: 3,
      },
      () =>
        failure
          .filter({ hasText: "Your earlier request did not go through: Insufficient coins! You need 12 tokens but have 3." })
          .waitFor({ timeout: 500 }),
    );
    await failure.getByRole("link").waitFor();
    await setLanguage("ar");
    await failure.filter({ hasText: "لم يكتمل طلبك السابق: رصيد غير كافٍ! تحتاج إلى 12 عملة ولديك 3." }).waitFor();
    await setLanguage("en");
    await page.unroute("**/api/textai/chat.php");
  });

  it("Text AI toasts a late failure of a reply that was taking longer than expected", async () => {
    await page.route("**/api/textai/chat.php", (route) => route.fulfill(lateAnswer("chat-late-text")));
    await page.goto(`${baseUrl}/text-ai`);
    const input = page.getByLabel("Message", { exact: true });
    await input.fill("Tell me about the sea");
    await input.press("Enter");
    await page.getByText(LATE_TEXT).first().waitFor();
    await pushFailure(
      { jobId: "chat-late-text", queue: "chat", code: "ai_unavailable", error: MESSAGES.aiUnavailable, refunded: 4 },
      () =>
        page
          .getByText(
            "Your earlier request did not go through: The AI service is not available right now. Please try again later.",
          )
          .first()
          .waitFor({ timeout: 500 }),
    );
    await page.unroute("**/api/textai/chat.php");
  });

  it("Image AI says the coins came back for a queued image, then shows its refusal at the daily cap", async () => {
    await page.route("**/api/images/generate.php", (route) => route.fulfill(queuedAnswer("image-late")));
    await page.goto(`${baseUrl}/image-ai`);
    await page.getByLabel("Prompt", { exact: true }).fill("a red bicycle by the sea");
    await page.getByRole("button", { name: "Generate image" }).click();
    await page.getByText("Your coins were returned; your request is still queued").first().waitFor();
    await pushFailure(
      {
        jobId: "image-late",
        queue: "image",
        code: "daily_cap_reached",
        error: MESSAGES.dailyCapReached,
        refunded: 0,
        cap: 100,
        spent: 96,
        needed: 10,
      },
      () =>
        page
          .getByText(
            "Your earlier request did not go through: This would pass your daily spending cap of 100 coins (96 spent today).",
          )
          .first()
          .waitFor({ timeout: 500 }),
    );
    await page.unroute("**/api/images/generate.php");
  });
});
