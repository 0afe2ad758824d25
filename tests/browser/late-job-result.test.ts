/// <reference lib="dom" />
/**
 * A job the screen stopped waiting for (503 `queued: true`, 504) which then succeeds: its result
 * shows where it was asked, as if the call had answered, and the 503/504 notice goes; the
 * conversation is filed as after any reply, and a screen left meanwhile still files it (chat) or
 * finds it in the history (image, recorded by the worker). The 503/504 answers are the API's bodies
 * given by the page's router, and the "job:completed" push sent as a worker does (late-jobs.ts).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ImageRecord, ServerEvents } from "@storefront/shared";
import { Pusher } from "@storefront/shared/server";
import { giveCoins, newUser } from "../support/client";
import { cookiesOf, keepFailureScreenshots, launch, screenshot, TAKE_SCREENSHOTS } from "./browser";
import { LATE_TEXT, lateAnswer, pushUntil, queuedAnswer } from "./late-jobs";

const baseUrl = inject("baseUrl");
let browser: Browser;
let page: Page;
let redis: Redis;
let pusher: Pusher;
let user: Awaited<ReturnType<typeof newUser>>;

const QUEUED_TEXT = "Your coins were returned; your request is still queued";

async function newPage(size: { width: number; height: number; isMobile: boolean }, language: "en" | "ar"): Promise<Page> {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    isMobile: size.isMobile,
    hasTouch: size.isMobile,
  });
  await context.addCookies(cookiesOf(user.client, baseUrl));
  await context.addInitScript((lang) => localStorage.setItem("language", lang), language);
  const opened = await context.newPage();
  opened.setDefaultTimeout(10_000);
  return opened;
}

beforeAll(async () => {
  user = await newUser();
  await giveCoins(user.id, 500);
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  pusher = new Pusher(redis);
  browser = await launch();
  page = await newPage({ width: 1366, height: 900, isMobile: false }, "en");
});

keepFailureScreenshots(() => page);

afterAll(async () => {
  await browser?.close();
  redis?.disconnect();
});

/** Pushes `event` until `done` holds. */
const pushResult = (event: ServerEvents["job:completed"], done: () => Promise<unknown>) =>
  pushUntil(pusher, user.id, "job:completed", event, done);

/** The user's stored conversations of `kind`, each with its messages. */
async function storedConversations(kind: "doctor" | "text") {
  const list = await user.client.get(`/conversations/list.php?userId=${user.id}&kind=${kind}`);
  return Promise.all(
    (list.body.conversations as { id: string }[]).map(async (c) => {
      const loaded = await user.client.get(`/conversations/load.php?conversationId=${c.id}&userId=${user.id}`);
      return (loaded.body.messages as { type: string; content: string }[]).map((m) => `${m.type}: ${m.content}`);
    }),
  );
}

/**
 * Waits until one stored conversation of `kind` holds exactly `messages` (and none holds them twice).
 * The screen files a reply after showing it (a save call of its own), so this waits as long as any
 * other wait on the page; inside pushUntil, which pushes again, each try is short.
 */
async function filed(kind: "doctor" | "text", messages: string[], timeout = 10_000): Promise<void> {
  await expect
    .poll(async () => (await storedConversations(kind)).filter((m) => m.join("\n").includes(messages.join("\n"))), {
      timeout,
    })
    .toEqual([messages]);
}

describe("a job that succeeds after its call ended", () => {
  it("the Doctor shows the reply of a queued question in its thread, drops the 503 notice and files the consultation once", async () => {
    await page.route("**/api/textai/chat.php", (route) => route.fulfill(queuedAnswer("chat-late-doctor-ok")));
    await page.goto(`${baseUrl}/doctor`);
    const box = page.getByLabel("Your message to the Doctor");
    await box.fill("I have had a headache for two days");
    await box.press("Enter");
    const failure = page.getByTestId("doctor-failure");
    await failure.filter({ hasText: QUEUED_TEXT }).waitFor();
    await page.locator("[data-live=on]").waitFor();
    await page.unroute("**/api/textai/chat.php");

    const reply = "Rest, drink water, and see a doctor if it lasts.";
    await pushResult({ jobId: "chat-late-doctor-ok", queue: "chat", result: { reply } }, () =>
      page.getByTestId("message-ai").getByText(reply).waitFor({ timeout: 500 }),
    );
    await page.getByText("I have had a headache for two days").waitFor();
    expect(await failure.count()).toBe(0);
    expect(await box.inputValue()).toBe("");
    await filed("doctor", ["user: I have had a headache for two days", `ai: ${reply}`]);
    // Listed in the sidebar as the open consultation.
    await page.locator("aside").getByText(reply).first().waitFor();
  });

  it("Text AI adds a late reply to the open conversation after its earlier turns and takes the 504 toast back", async () => {
    await page.goto(`${baseUrl}/text-ai`);
    const input = page.getByLabel("Message", { exact: true });
    await input.fill("Name a sea");
    await input.press("Enter");
    // The first turn is answered by the stack's chat worker (its stub provider).
    await expect.poll(async () => (await storedConversations("text")).length, { timeout: 30_000 }).toBe(1);
    const [first] = await storedConversations("text");
    expect(first).toHaveLength(2);
    // The server has filed it, but the screen takes the new conversation's id from the save call's
    // answer: a question asked before that is a new conversation's (the list marks the open one).
    await page.locator("aside button[aria-current=true]").waitFor();

    await page.route("**/api/textai/chat.php", (route) => route.fulfill(lateAnswer("chat-late-text-ok")));
    await input.fill("And its deepest point?");
    await input.press("Enter");
    const toast = page.getByText(LATE_TEXT);
    await toast.first().waitFor();
    await page.unroute("**/api/textai/chat.php");

    const reply = "About 11,000 metres down.";
    await pushResult({ jobId: "chat-late-text-ok", queue: "chat", result: { reply } }, () =>
      page.getByTestId("message-ai").getByText(reply).waitFor({ timeout: 500 }),
    );
    await toast.waitFor({ state: "detached" });
    await filed("text", [...first!, "user: And its deepest point?", `ai: ${reply}`]);
    expect(await storedConversations("text")).toHaveLength(1);
  });

  it("a Doctor consultation left before its late reply is filed with it, found there on coming back", async () => {
    await page.route("**/api/textai/chat.php", (route) => route.fulfill(queuedAnswer("chat-late-doctor-away")));
    await page.goto(`${baseUrl}/doctor`);
    await page.getByRole("button", { name: "New consultation" }).click();
    const box = page.getByLabel("Your message to the Doctor");
    await box.fill("My knee hurts when I run");
    await box.press("Enter");
    await page.getByTestId("doctor-failure").filter({ hasText: QUEUED_TEXT }).waitFor();
    await page.unroute("**/api/textai/chat.php");
    // Left within the app (the page, and what it waits for, stay).
    await page.getByRole("link", { name: "Dashboard", exact: true }).click();
    await page.waitForURL("**/dashboard");

    const reply = "Rest the knee for a few days and ice it.";
    await pushResult({ jobId: "chat-late-doctor-away", queue: "chat", result: { reply } }, () =>
      filed("doctor", ["user: My knee hurts when I run", `ai: ${reply}`], 500),
    );
    await page.goto(`${baseUrl}/doctor`);
    await page.locator("aside").getByText(reply).first().click();
    await page.locator("main, .chat-screen__main").getByText("My knee hurts when I run").first().waitFor();
  });

  it("Image AI shows an image made after its call ended, drops the 504 notice and has it in the history", async () => {
    // The real call runs (the stack's image worker makes and records the picture); the page is
    // answered 504 instead, and told its end by a push under another job id.
    let made: ImageRecord | undefined;
    await page.route("**/api/images/generate.php", async (route) => {
      const real = await route.fetch();
      made = ((await real.json()) as { image: ImageRecord }).image;
      await route.fulfill(lateAnswer("image-late-ok"));
    });
    await page.goto(`${baseUrl}/image-ai`);
    await page.getByLabel("Prompt", { exact: true }).fill("a lighthouse at dawn");
    await page.getByRole("button", { name: "Generate image" }).click();
    await page.getByText(LATE_TEXT).first().waitFor({ timeout: 30_000 });
    await page.unroute("**/api/images/generate.php");
    expect(made).toBeDefined();

    await pushResult({ jobId: "image-late-ok", queue: "image", result: { image: made! } }, () =>
      page.getByText("Image generated successfully!").waitFor({ timeout: 500 }),
    );
    await page.getByRole("img", { name: "Generated image: a lighthouse at dawn" }).first().waitFor();
    await page.getByText(LATE_TEXT).first().waitFor({ state: "detached" });
    const history = await user.client.get(`/images/history.php?userId=${user.id}`);
    expect((history.body.images as ImageRecord[]).filter((i) => i.id === made!.id)).toHaveLength(1);
  });

  it.runIf(TAKE_SCREENSHOTS)("screenshots of a late reply and a late image in place", async () => {
    const sizes = [
      { name: "phone", width: 390, height: 844, isMobile: true },
      { name: "desktop", width: 1366, height: 900, isMobile: false },
    ];
    for (const size of sizes) {
      for (const language of ["en", "ar"] as const) {
        const shot = await newPage(size, language);
        const jobId = `shot-${size.name}-${language}`;
        await shot.route("**/api/textai/chat.php", (route) => route.fulfill(queuedAnswer(jobId)));
        await shot.goto(`${baseUrl}/doctor`);
        await shot.locator("textarea").fill(language === "ar" ? "عندي صداع منذ يومين" : "I have had a headache for two days");
        await shot.locator("textarea").press("Enter");
        await shot.getByTestId("doctor-failure").waitFor();
        await shot.locator("[data-live=on]").waitFor();
        await screenshot(shot, `late-job-doctor-queued-${size.name}-${language}`);
        const reply = language === "ar" ? "استرح واشرب الماء." : "Rest and drink water.";
        await pushResult({ jobId, queue: "chat", result: { reply } }, () =>
          shot.locator(".chat-screen__main").getByText(reply).waitFor({ timeout: 500 }),
        );
        await screenshot(shot, `late-job-doctor-reply-${size.name}-${language}`);

        let image: ImageRecord | undefined;
        await shot.route("**/api/images/generate.php", async (route) => {
          image = ((await (await route.fetch()).json()) as { image: ImageRecord }).image;
          await route.fulfill(lateAnswer(`${jobId}-image`));
        });
        await shot.goto(`${baseUrl}/image-ai`);
        await shot.locator("textarea").first().fill("a lighthouse at dawn");
        await shot.locator("form button[type=submit]").first().click();
        await shot.locator(".alert--error, [role=alert]").first().waitFor({ timeout: 30_000 });
        await screenshot(shot, `late-job-image-late-${size.name}-${language}`);
        await pushResult({ jobId: `${jobId}-image`, queue: "image", result: { image: image! } }, () =>
          shot
            .locator(`.image-ai__results img[src="${image!.url}"], main img[src="${image!.url}"]`)
            .first()
            .waitFor({ timeout: 500 }),
        );
        await screenshot(shot, `late-job-image-${size.name}-${language}`);
        await shot.context().close();
      }
    }
  });
});
