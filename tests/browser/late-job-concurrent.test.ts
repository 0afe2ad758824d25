/// <reference lib="dom" />
/**
 * A late chat reply (its call answered 504, or 503 `queued: true`) and another question of the same
 * conversation: whichever ends first, the conversation keeps both questions and both replies, on
 * the screen and in the database, in one conversation. The second question goes to the real stack
 * (its chat worker answers with the stub provider), held by the page's router until the test lets
 * it go; the late reply is pushed as a worker does (late-jobs.ts).
 */
import type { Browser, Locator, Page, Route } from "playwright-core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cleanMarkdown } from "@storefront/shared";
import { Pusher } from "@storefront/shared/server";
import { giveCoins, newUser } from "../support/client";
import { cookiesOf, keepFailureScreenshots, launch, screenshot, TAKE_SCREENSHOTS } from "./browser";
import { lateAnswer, pushUntil, queuedAnswer } from "./late-jobs";

const baseUrl = inject("baseUrl");
const CHAT = "**/api/textai/chat.php";
let browser: Browser;
let page: Page;
let redis: Redis;
let pusher: Pusher;
let user: Awaited<ReturnType<typeof newUser>>;

beforeAll(async () => {
  user = await newUser();
  await giveCoins(user.id, 500);
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  pusher = new Pusher(redis);
  browser = await launch();
});

keepFailureScreenshots(() => page);

afterAll(async () => {
  await browser?.close();
  redis?.disconnect();
});

const DESKTOP = { width: 1366, height: 900, isMobile: false };

/** A fresh tab (nothing restored from an earlier test's storage). */
async function freshPage(path: string, size = DESKTOP, language: "en" | "ar" = "en"): Promise<void> {
  await page?.context().close();
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    isMobile: size.isMobile,
    hasTouch: size.isMobile,
  });
  await context.addCookies(cookiesOf(user.client, baseUrl));
  await context.addInitScript((lang) => localStorage.setItem("language", lang), language);
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${baseUrl}${path}`);
}

/** The user's stored conversations of `kind`, each as its messages. */
async function storedConversations(kind: "doctor" | "text"): Promise<string[][]> {
  const list = await user.client.get(`/conversations/list.php?userId=${user.id}&kind=${kind}`);
  return Promise.all(
    (list.body.conversations as { id: string }[]).map(async (c) => {
      const loaded = await user.client.get(`/conversations/load.php?conversationId=${c.id}&userId=${user.id}`);
      return (loaded.body.messages as { type: string; content: string }[]).map((m) => `${m.type}: ${m.content}`);
    }),
  );
}

/** The stored conversations of `kind` holding the message `line`. */
const holding = async (kind: "doctor" | "text", line: string) =>
  (await storedConversations(kind)).filter((m) => m.includes(line));

/** Waits until the stored conversations of `kind` holding the message `marker` are exactly one, holding `messages`. */
async function filedAs(kind: "doctor" | "text", marker: string, messages: string[]): Promise<void> {
  await expect.poll(() => holding(kind, marker), { timeout: 5_000 }).toEqual([messages]);
}

/** The next chat call goes to the stack once `release` is called; `answered` is its reply's text. */
async function holdNextCall() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  const answered = new Promise<string>((resolve, reject) => {
    void page.route(
      CHAT,
      async (route: Route) => {
        arrived();
        await released;
        try {
          const real = await route.fetch({ timeout: 30_000 });
          const body = (await real.json()) as { message?: string };
          await route.fulfill({ response: real });
          // As the screen shows and files it.
          if (body.message) resolve(cleanMarkdown(body.message));
          else reject(new Error(`chat call failed: ${JSON.stringify(body)}`));
        } catch (error) {
          reject(error as Error);
        }
      },
      { times: 1 },
    );
  });
  return { held, release, answered };
}

/** Asks `text` with the box `box`, the call answered by `answer` (a 503/504 body). */
async function askLate(box: Locator, text: string, answer: Parameters<Route["fulfill"]>[0]) {
  await page.route(CHAT, (route) => route.fulfill(answer), { times: 1 });
  await box.fill(text);
  await box.press("Enter");
  // The question goes back in the box once the call has ended (a poll's own 1 s is short in a loaded run).
  await expect.poll(() => box.inputValue(), { timeout: 10_000 }).toBe(text);
}

const pushReply = (jobId: string, reply: string, shown: () => Promise<unknown>) =>
  pushUntil(pusher, user.id, "job:completed", { jobId, queue: "chat", result: { reply } }, shown);

/** The thread's messages as shown, in order. */
const shownThread = () =>
  page
    .locator("[data-testid=message-user], [data-testid=message-ai]")
    .evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute("data-testid")!.slice(8)}: ${n.textContent ?? ""}`));

/** Each of `messages` ("user: ..." / "ai: ...") shows in the thread, in that order. */
async function shownInOrder(messages: string[]): Promise<void> {
  await expect
    .poll(async () => {
      const shown = await shownThread();
      const at = messages.map((m) => {
        const [type, text] = [m.slice(0, m.indexOf(":")), m.slice(m.indexOf(":") + 2)];
        return shown.findIndex((s) => s.startsWith(`${type}:`) && s.includes(text));
      });
      return at.every((index, i) => index >= 0 && (i === 0 || index > at[i - 1]!));
    })
    .toBe(true);
}

/**
 * Asks `late.question` (its call answered by `late.answer`), then `next` in the same thread (held in
 * flight); the late reply comes while `next` is in flight, or (`nextFirst`) once it was answered
 * and filed. The thread shown and the one conversation stored then hold `earlier`, then both turns.
 */
async function lateAndNext(c: {
  kind: "doctor" | "text";
  box: Locator;
  earlier: string[];
  late: { question: string; answer: Parameters<Route["fulfill"]>[0]; jobId: string; reply: string };
  next: string;
  nextFirst: boolean;
}): Promise<void> {
  await askLate(c.box, c.late.question, c.late.answer);
  const second = await holdNextCall();
  await c.box.fill(c.next);
  await c.box.press("Enter");
  await second.held;
  const lateTurn = [`user: ${c.late.question}`, `ai: ${c.late.reply}`];
  const pushLate = () =>
    pushReply(c.late.jobId, c.late.reply, () => page.getByTestId("message-ai").getByText(c.late.reply).waitFor({ timeout: 500 }));
  let all: string[];
  if (c.nextFirst) {
    second.release();
    const nextTurn = [`user: ${c.next}`, `ai: ${await second.answered}`];
    await filedAs(c.kind, `user: ${c.next}`, [...c.earlier, ...nextTurn]);
    await pushLate();
    all = [...c.earlier, ...nextTurn, ...lateTurn];
  } else {
    await pushLate();
    second.release();
    all = [...c.earlier, ...lateTurn, `user: ${c.next}`, `ai: ${await second.answered}`];
  }
  await shownInOrder(all);
  await filedAs(c.kind, `user: ${c.next}`, all);
}

describe("a late chat reply and another question of the same conversation", () => {
  it("Text AI keeps a late reply that arrives while the next question is in flight, before that question", async () => {
    await freshPage("/text-ai");
    const box = page.getByLabel("Message", { exact: true });
    await box.fill("Name a river in Egypt");
    await box.press("Enter");
    // The first turn is answered by the stack's chat worker (its stub provider).
    await expect.poll(async () => (await holding("text", "user: Name a river in Egypt")).length, { timeout: 30_000 }).toBe(1);
    const [earlier] = await holding("text", "user: Name a river in Egypt");
    await lateAndNext({
      kind: "text",
      box,
      earlier: earlier!,
      late: {
        question: "How long is it?",
        answer: lateAnswer("chat-concurrent-text-1"),
        jobId: "chat-concurrent-text-1",
        reply: "About 6,650 kilometres.",
      },
      next: "convert 10 km to miles",
      nextFirst: false,
    });
  });

  it("Text AI files a late reply arriving after the next question was answered in that new conversation", async () => {
    await freshPage("/text-ai");
    await lateAndNext({
      kind: "text",
      box: page.getByLabel("Message", { exact: true }),
      earlier: [],
      late: {
        question: "Name a desert in Chile",
        answer: lateAnswer("chat-concurrent-text-2"),
        jobId: "chat-concurrent-text-2",
        reply: "The Atacama.",
      },
      next: "what is 15% of 200",
      nextFirst: true,
    });
  });

  it("the Doctor keeps a queued question's late reply that arrives while the next question is in flight, in one consultation", async () => {
    await freshPage("/doctor");
    await lateAndNext({
      kind: "doctor",
      box: page.getByLabel("Your message to the Doctor"),
      earlier: [],
      late: {
        question: "My ankle is swollen",
        answer: queuedAnswer("chat-concurrent-doctor-1"),
        jobId: "chat-concurrent-doctor-1",
        reply: "Raise the ankle and keep off it today.",
      },
      next: "distance from Cairo to Riyadh",
      nextFirst: false,
    });
  });

  it("the Doctor adds a late reply arriving after the next question was answered to the same consultation", async () => {
    await freshPage("/doctor");
    await lateAndNext({
      kind: "doctor",
      box: page.getByLabel("Your message to the Doctor"),
      earlier: [],
      late: {
        question: "I sneeze every morning",
        answer: lateAnswer("chat-concurrent-doctor-2"),
        jobId: "chat-concurrent-doctor-2",
        reply: "It may be an allergy; try an antihistamine.",
      },
      next: "define inflation",
      nextFirst: true,
    });
  });

  it("Text AI files a late reply in its own conversation after another one was opened and answered meanwhile", async () => {
    await freshPage("/text-ai");
    const box = page.getByLabel("Message", { exact: true });
    await box.fill("convert 5 km to miles");
    await box.press("Enter");
    await page.getByTestId("message-ai").first().waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await holding("text", "user: convert 5 km to miles")).length, { timeout: 30_000 }).toBe(1);
    const [first] = await holding("text", "user: convert 5 km to miles");
    await askLate(box, "And 7 km?", lateAnswer("chat-concurrent-text-3"));

    await page.keyboard.press("Control+n");
    await expect.poll(() => box.inputValue(), { timeout: 10_000 }).toBe("");
    await box.fill("what is 20% of 50");
    await box.press("Enter");
    await page.getByTestId("message-ai").first().waitFor({ timeout: 30_000 });
    // Filed by a save after the answer shows: as long as the other stored-conversation waits here.
    await expect.poll(async () => (await holding("text", "user: what is 20% of 50")).length, { timeout: 30_000 }).toBe(1);
    const shown = await shownThread();

    const late = "7 km = 4.35 miles";
    await pushReply("chat-concurrent-text-3", late, () =>
      filedAs("text", "user: convert 5 km to miles", [...first!, "user: And 7 km?", `ai: ${late}`]),
    );
    // The open conversation is left as it was.
    expect(await shownThread()).toEqual(shown);
    await page.locator("aside").getByText("convert 5 km to miles").first().click();
    await shownInOrder([...first!, "user: And 7 km?", `ai: ${late}`]);
  });

  it("Text AI files an answer in the conversation it was asked in when another was opened while it was in flight", async () => {
    await freshPage("/text-ai");
    const box = page.getByLabel("Message", { exact: true });
    const asked = async (text: string) => {
      await box.fill(text);
      await box.press("Enter");
      await expect.poll(async () => (await holding("text", `user: ${text}`)).length, { timeout: 30_000 }).toBe(1);
      return (await holding("text", `user: ${text}`))[0]!;
    };
    const a = await asked("convert 3 km to miles");
    await page.keyboard.press("Control+n");
    await expect.poll(shownThread, { timeout: 10_000 }).toEqual([]);
    const b = await asked("what is 40% of 10");

    await page.locator("aside").getByText("convert 3 km to miles").first().click();
    await shownInOrder(a);
    const second = await holdNextCall();
    await box.fill("convert 4 km to miles");
    await box.press("Enter");
    await second.held;
    await page.locator("aside").getByText("what is 40% of 10").first().click();
    await shownInOrder(b);
    second.release();
    await filedAs("text", "user: convert 3 km to miles", [...a, "user: convert 4 km to miles", `ai: ${await second.answered}`]);
    // The open conversation is left as it was, and its next turn is filed after it.
    expect((await shownThread()).length).toBe(b.length);
    const next = await holdNextCall();
    next.release();
    await box.fill("what is 50% of 10");
    await box.press("Enter");
    await filedAs("text", "user: what is 40% of 10", [...b, "user: what is 50% of 10", `ai: ${await next.answered}`]);
  });
});

describe("a conversation's save that fails", () => {
  it("is tried again when the server fails, and the conversation is filed", async () => {
    await freshPage("/doctor");
    let failed = 0;
    await page.route(
      "**/api/conversations/save.php",
      (route) => {
        failed += 1;
        return route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ success: false, code: "unavailable", error: "Service unavailable" }),
        });
      },
      { times: 1 },
    );
    const box = page.getByLabel("Your message to the Doctor");
    await box.fill("what is 25% of 80");
    await box.press("Enter");
    await page.getByTestId("message-ai").first().waitFor({ timeout: 30_000 });
    await expect.poll(() => holding("doctor", "user: what is 25% of 80"), { timeout: 30_000 }).toHaveLength(1);
    expect(failed).toBe(1);
    expect(await page.getByText("Failed to save conversation").count()).toBe(0);
  });

  it("is told when the server refuses it", async () => {
    await freshPage("/text-ai");
    await page.route("**/api/conversations/save.php", (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({ success: false, code: "invalid_input", error: "messages: too many" }),
      }),
    );
    const box = page.getByLabel("Message", { exact: true });
    await box.fill("what is 30% of 90");
    await box.press("Enter");
    await page.getByText("Failed to save conversation").first().waitFor({ timeout: 30_000 });
    // The thread stays on screen.
    await page.getByTestId("message-user").getByText("what is 30% of 90").waitFor();
  });

  it.runIf(TAKE_SCREENSHOTS)(
    "screenshots of a late reply placed before the next question, and of a save refused",
    async () => {
      const sizes = [
        { name: "phone", width: 390, height: 844, isMobile: true },
        { name: "desktop", ...DESKTOP },
      ];
      for (const size of sizes) {
        for (const language of ["en", "ar"] as const) {
          const ar = language === "ar";
          const jobId = `shot-concurrent-${size.name}-${language}`;
          await freshPage("/doctor", size, language);
          const box = page.locator("textarea");
          await askLate(box, ar ? "كاحلي متورم" : "My ankle is swollen", queuedAnswer(jobId));
          const second = await holdNextCall();
          await box.fill(ar ? "ما هي المسافة من القاهرة إلى الرياض" : "distance from Cairo to Riyadh");
          await box.press("Enter");
          await second.held;
          const late = ar ? "ارفع الكاحل واسترح اليوم." : "Raise the ankle and keep off it today.";
          await pushReply(jobId, late, () => page.getByTestId("message-ai").getByText(late).waitFor({ timeout: 500 }));
          second.release();
          await page.getByTestId("message-ai").nth(1).waitFor({ timeout: 30_000 });
          await screenshot(page, `late-reply-before-next-doctor-${size.name}-${language}`);

          await freshPage("/text-ai", size, language);
          await page.route("**/api/conversations/save.php", (route) =>
            route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify({ success: false }) }),
          );
          await page.locator("textarea").fill(ar ? "كم يساوي 30% من 90" : "what is 30% of 90");
          await page.locator("textarea").press("Enter");
          await page
            .getByText(ar ? "تعذّر حفظ المحادثة" : "Failed to save conversation")
            .first()
            .waitFor({ timeout: 30_000 });
          await screenshot(page, `conversation-save-failed-textai-${size.name}-${language}`);
        }
      }
    },
    180_000,
  );
});
