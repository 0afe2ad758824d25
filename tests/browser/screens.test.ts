/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Every screen at a phone and a desktop size, in English and Arabic: no sideways scrolling, every
 * visible control reachable (inside the viewport or its own scrolling box, not covered), no
 * untranslated Latin word on an Arabic screen, no serious axe violation and no console error. With
 * `npm run screenshots` the screens also land in test-artifacts/screenshots/<size>/<language>/ for a
 * person to look at. Each walk loads its first screen and moves to the next ones inside the app, as a
 * person does.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it, type ExpectStatic } from "vitest";
import { adminClient, giveCoins, newUser, type Client } from "../support/client";
import { cookiesOf, launch, screenshot, seriousViolations, TAKE_SCREENSHOTS } from "./browser";

const baseUrl = inject("baseUrl");

export const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 900 },
] as const;
const LANGUAGES = ["en", "ar"] as const;

const PUBLIC_SCREENS = ["/", "/login", "/signup", "/admin-login"];
const USER_SCREENS = [
  "/dashboard",
  "/text-ai",
  "/doctor",
  "/image-ai",
  "/video-test",
  "/sms-ai",
  "/profile",
  "/get-coins",
  "/usage",
];
const ADMIN_SECTIONS = [
  "dashboard",
  "analytics",
  "users",
  "packages",
  "redemption",
  "walletConfig",
  "smsConfig",
  "smsIntegration",
  "queues",
  "audit",
  "admins",
];

/**
 * Latin words an Arabic screen may show: brand and product names, units and technical names
 * that are written in Latin letters in Arabic too. Anything else is an untranslated text.
 */
const LATIN_ALLOWED = new Set(
  [
    "AI",
    "SMS",
    "SMPP",
    "HTTP",
    "HTTPS",
    "URL",
    "API",
    "IP",
    "CIDR",
    "CSV",
    "Webhook",
    "MO",
    "MT",
    "ID",
    "DALL",
    "GPT",
    "OpenAI",
    "Runway",
    "Gemini",
    "Claude",
    "Stable",
    "Diffusion",
    "px",
    "MB",
    "KB",
    "PNG",
    "JPG",
    "JPEG",
    "WEBP",
    "MP4",
    "BullMQ",
    "Redis",
    "USD",
    // The dollar's sign as Arabic writes it ("4.99 US$").
    "US",
    "ms",
    "Bull",
    "Board",
    "Ctrl",
    "Shift",
    "Enter",
  ].map((w) => w.toLowerCase()),
);

interface ScreenReport {
  overflow: { scrollWidth: number; width: number; widest: string[] };
  unreachable: string[];
  latinStatic: string[];
  latinDynamic: string[];
  /** Arabic screens write every number with Western digits (web/src/lib/locale.ts). */
  easternDigits: string[];
}

/** Runs inside the page: the layout and text findings of one screen. */
function inspect(): ScreenReport {
  const width = document.documentElement.clientWidth;
  const describe = (el: Element) => {
    const label = el.getAttribute("aria-label") ?? el.getAttribute("data-testid") ?? (el.textContent ?? "").trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className && typeof el.className === "string" ? `.${el.className.split(" ").join(".")}` : ""} "${label}"`;
  };
  const visible = (el: Element) => {
    if (!(el as HTMLElement).checkVisibility?.({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !el.closest("[inert], [aria-hidden='true']");
  };

  const widest = [...document.body.querySelectorAll("*")]
    .filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.right > width + 1 || r.left < -1) && !scrollsInline(el.parentElement);
    })
    .slice(0, 5)
    .map(
      (el) => `${describe(el)} [${Math.round(el.getBoundingClientRect().left)}, ${Math.round(el.getBoundingClientRect().right)}]`,
    );

  function scrollsInline(el: Element | null): boolean {
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      const overflow = getComputedStyle(node).overflowX;
      if (overflow === "auto" || overflow === "scroll") return true;
    }
    return false;
  }

  const unreachable: string[] = [];
  const controls = document.body.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=switch], [role=tab], summary",
  );
  for (const el of controls) {
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    const inScroller = scrollsInline(el.parentElement);
    if (!inScroller && (r.left < -1 || r.right > width + 1)) {
      unreachable.push(`${describe(el)} is outside the viewport [${Math.round(r.left)}, ${Math.round(r.right)}]`);
      continue;
    }
    // Covered by something else (a drawer, a toast): the centre of the control must be the control.
    const x = Math.min(Math.max(r.left + r.width / 2, 0), width - 1);
    const y = r.top + Math.min(r.height / 2, 10);
    if (inScroller || y < 0 || y >= window.innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    if (hit && !el.contains(hit) && !hit.contains(el) && !(el as HTMLInputElement).labels?.length) {
      unreachable.push(`${describe(el)} is covered by ${describe(hit)}`);
    }
  }

  const latinStatic: string[] = [];
  const latinDynamic: string[] = [];
  const easternDigits: string[] = [];
  if (document.documentElement.lang === "ar") {
    // User-written text, and text marked as another language on purpose (the language toggle).
    const userText =
      "[dir='auto'], bdi, [translate='no'], [lang]:not([lang='ar']), textarea, input, select, script, style, noscript, svg";
    const serverText = "[role='alert'], [role='status'], .toast, [aria-live]";
    // Words of user-written text on the page (names in a label such as "Role of root-admin").
    const userWords = new Set<string>();
    for (const el of document.body.querySelectorAll(userText)) {
      const text = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : (el.textContent ?? "");
      for (const word of text.match(/[A-Za-z][A-Za-z'’-]+/gu) ?? []) userWords.add(word);
    }
    const record = (text: string, where: Element, attribute = false) => {
      for (const word of text.match(/[A-Za-z][A-Za-z'’-]+/gu) ?? []) {
        if (LATIN.includes(word.toLowerCase()) || (attribute && userWords.has(word))) continue;
        (where.closest(serverText) ? latinDynamic : latinStatic).push(`${word} in ${describe(where)}`);
      }
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(userText) || !visible(parent)) continue;
      record(node.textContent ?? "", parent);
      if (/[\u0660-\u0669\u06F0-\u06F9]/u.test(node.textContent ?? "")) easternDigits.push(describe(parent));
    }
    for (const el of document.body.querySelectorAll("[aria-label], [placeholder], [title], img[alt]")) {
      if (el.closest(userText)) continue;
      for (const attr of ["aria-label", "placeholder", "title", "alt"]) {
        const value = el.getAttribute(attr);
        if (value) record(value, el, true);
      }
    }
  }
  return {
    overflow: { scrollWidth: document.documentElement.scrollWidth, width, widest },
    unreachable,
    latinStatic: [...new Set(latinStatic)],
    latinDynamic: [...new Set(latinDynamic)],
    easternDigits,
  };
}
// `inspect` runs in the page, where the allowlist arrives as a global.
declare const LATIN: string[];

let browser: Browser;
let user: { client: Client; id: string; phone: string };
let admin: Client;
let adminRecord: unknown;
const dynamicLatin = new Set<string>();
const timings: string[] = [];

beforeAll(async () => {
  browser = await launch();
  user = await newUser("screens-pass-1");
  await giveCoins(user.id, 5000, 3);
  // One charged call, so the administrator's usage table and chart have rows to translate.
  const chat = await user.client.post("/textai/chat.php", {
    message: "hello",
    userId: user.id,
    conversationId: null,
    avatarType: "general",
    conversationHistory: [],
    language: "en",
  });
  expect(chat.status).toBe(200);
  admin = await adminClient();
  // A package on offer, so Get coins is looked at with a card (and its long name wraps).
  const offered = await admin.post("/admin/wallet-packages-simple.php", {
    name: "Starter pack for the screens walk",
    coins: 1000,
    price: 4.99,
    subscription_type: "monthly",
    description: "A thousand coins, renewed monthly.",
  });
  expect(offered.status).toBe(201);
  adminRecord = (await admin.get("/admin/session.php")).body.admin;
});

afterAll(async () => {
  if (dynamicLatin.size) console.warn(`Latin words from the server on Arabic screens:\n${[...dynamicLatin].join("\n")}`);
  if (process.env.SCREENS_TIMINGS) console.log(timings.join("\n"));
  await browser?.close();
});

async function openContext(size: (typeof SIZES)[number], language: "en" | "ar", client: Client | null): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
  if (client) await context.addCookies(cookiesOf(client, baseUrl));
  await context.addInitScript(
    ([lang, record, allowed]) => {
      localStorage.setItem("language", lang);
      if (record) localStorage.setItem("admin_session", record);
      (globalThis as unknown as { LATIN: readonly string[] }).LATIN = allowed;
    },
    [language, client === admin ? JSON.stringify(adminRecord) : "", [...LATIN_ALLOWED]] as const,
  );
  return context;
}

/** `expect` is the running test's own: the walks run concurrently. */
async function check(
  expect: ExpectStatic,
  page: Page,
  errors: string[],
  name: string,
  size: string,
  language: string,
): Promise<void> {
  await page.locator("main").first().waitFor();
  // Loaded: no loading screen, spinner or busy wallet badge left (the data the screen shows has come).
  await page
    .waitForFunction(() => !document.querySelector(".page-loading, .spinner, [aria-busy='true']"), null, { timeout: 5000 })
    .catch(() => undefined);
  // Admin tables render their rows (or their "empty" row) once their data has come.
  await page
    .waitForFunction(() => [...document.querySelectorAll(".admin-table")].every((t) => t.querySelector("tbody tr")), null, {
      timeout: 5000,
    })
    .catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const report = await page.evaluate(inspect);
  if (TAKE_SCREENSHOTS)
    await timed(`${size}/${language}/${name}: screenshot`, () => screenshot(page, `${size}/${language}/${name}`));
  for (const word of report.latinDynamic) dynamicLatin.add(`${name}: ${word}`);
  expect
    .soft({
      screen: name,
      sidewaysScroll: report.overflow.scrollWidth > report.overflow.width ? report.overflow : null,
      unreachable: report.unreachable,
      untranslated: report.latinStatic,
      easternDigits: report.easternDigits,
      // axe reads the page's markup, which is the same in both languages at one width but for the
      // text and its direction: every screen is checked at the desktop size in Arabic (right to
      // left, with colour contrast) and at the phone size, whose menus and layouts differ, in
      // English (without colour contrast: it does not change with the width, and it is the slow rule).
      axe:
        (size === "phone") === (language === "ar")
          ? []
          : await timed(`${size}/${language}/${name}: axe`, () =>
              seriousViolations(page, size === "phone" ? ["color-contrast"] : []),
            ),
      consoleErrors: errors.splice(0),
    })
    .toEqual({
      screen: name,
      sidewaysScroll: null,
      unreachable: [],
      untranslated: [],
      easternDigits: [],
      axe: [],
      consoleErrors: [],
    });
}

async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await run();
  } finally {
    timings.push(`${label} ${Date.now() - started} ms`);
  }
}

/**
 * Opens `url` as a person moving through the app would: the first screen of a walk is a full page
 * load, the next ones are client-side navigations (the router follows history and popstate), which
 * cost a fifth of a load's CPU. Resolves once the new screen has replaced the old one in `main`: a
 * lazily loaded screen keeps the old one on show until its chunk arrives.
 */
async function go(page: Page, url: string): Promise<void> {
  if (!page.url().startsWith(baseUrl)) {
    await page.goto(url);
    return;
  }
  const before = await page.evaluateHandle(() => document.querySelector("main")?.firstElementChild ?? null);
  await page.evaluate((next) => {
    history.pushState(null, "", next);
    dispatchEvent(new PopStateEvent("popstate"));
  }, url);
  await page.waitForFunction((old) => {
    const first = document.querySelector("main")?.firstElementChild;
    return Boolean(first) && first !== old;
  }, before);
  await before.dispose();
}

function watch(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text().slice(0, 300));
  });
  page.on("pageerror", (error) => errors.push(error.message.slice(0, 300)));
  return errors;
}

it("the accessibility check finds a control without a name", async () => {
  const page = await browser.newPage();
  await page.setContent('<html lang="en"><head><title>t</title></head><body><main><button></button></main></body></html>');
  expect(await seriousViolations(page)).toEqual([expect.stringMatching(/^button-name \(critical\): button$/u)]);
  await page.close();
});

/** A hang guard, not a speed goal: eight walks share two cores with the rest of the run. */
const WALK_TIMEOUT_MS = 180_000;

// The eight walks are independent (each its own browser context), so they run side by side: the
// page work of one overlaps the network and server time of another.
describe.concurrent("every screen", () => {
  for (const size of SIZES) {
    for (const language of LANGUAGES) {
      it(
        `subscriber and public screens at ${size.width}x${size.height} in ${language}`,
        { timeout: WALK_TIMEOUT_MS },
        async ({ expect }) => {
          const visitor = await openContext(size, language, null);
          const vp = await visitor.newPage();
          const visitorErrors = watch(vp);
          for (const path of PUBLIC_SCREENS) {
            await go(vp, `${baseUrl}${path}`);
            await check(expect, vp, visitorErrors, path === "/" ? "home" : path.slice(1), size.name, language);
          }
          await visitor.close();

          const context = await openContext(size, language, user.client);
          const page = await context.newPage();
          const errors = watch(page);
          for (const path of USER_SCREENS) {
            await go(page, `${baseUrl}${path}`);
            await check(expect, page, errors, path.slice(1), size.name, language);
          }
          await context.close();
        },
      );

      it(
        `administrator sections at ${size.width}x${size.height} in ${language}`,
        { timeout: WALK_TIMEOUT_MS },
        async ({ expect }) => {
          const context = await openContext(size, language, admin);
          const page = await context.newPage();
          const errors = watch(page);
          for (const section of ADMIN_SECTIONS) {
            await go(page, `${baseUrl}/admin-dashboard?section=${section}`);
            await page.locator(".admin__content").waitFor();
            await check(expect, page, errors, `admin-${section}`, size.name, language);
          }
          await context.close();
        },
      );
    }
  }
});
