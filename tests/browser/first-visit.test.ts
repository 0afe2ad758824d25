/// <reference lib="dom" />
/**
 * What a new visitor and an administrator on a phone meet first (issue 36), at 390x844 and 1366x900
 * in English and Arabic: the home page's prices from the live pricing table, one way back from a
 * guarded page to sign in (and back to that page, never to another site), the phone field's country
 * and as-you-type check, the back office's tables as cards with their actions in view and Wallet
 * Config's unsaved-changes state and Save in reach, and a visible focus ring on every background.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminClient, giveCoins, newUser, type Client } from "../support/client";
import { cookiesOf, keepFailureScreenshots, launch, screenshot } from "./browser";

const baseUrl = inject("baseUrl");
const SIZES = [
  { name: "phone", width: 390, height: 844, isMobile: true },
  { name: "desktop", width: 1366, height: 900, isMobile: false },
] as const;
const LANGUAGES = ["en", "ar"] as const;
type Language = (typeof LANGUAGES)[number];

const TEXT = {
  en: {
    accessDenied: "Access Denied",
    login: "Login",
    signIn: "Sign in",
    password: "Password",
    tooShort: "This number is too short",
    imagePrice: (coins: string) => `${coins} coins per image`,
    unsaved: "Unsaved changes",
    editTier: "Edit Tier",
    assign: "Assign Package",
  },
  ar: {
    accessDenied: "يرجى تسجيل الدخول",
    login: "تسجيل الدخول",
    signIn: "تسجيل الدخول",
    password: "كلمة المرور",
    tooShort: "هذا الرقم قصير جدًا",
    imagePrice: (coins: string) => `${coins} عملة لكل صورة`,
    unsaved: "تغييرات غير محفوظة",
    editTier: "تعديل المستوى",
    assign: "تعيين باقة",
  },
} as const;

let browser: Browser;
let admin: Client;
let adminRecord: unknown;
let shown: Page | undefined;
let rich = { id: "", phone: "" };
keepFailureScreenshots(() => shown);

beforeAll(async () => {
  browser = await launch();
  admin = await adminClient();
  adminRecord = (await admin.get("/admin/session.php")).body.admin;
  // A subscriber with a long balance, so the users table's coin column has a wide figure to show.
  const user = await newUser();
  rich = { id: user.id, phone: user.phone };
  await giveCoins(rich.id, 1_234_908, 4);
  // Spending on five features, so "Coins by feature" has five bars to name.
  const calls = [
    user.client.post("/textai/chat.php", { message: "hello", avatarType: "general" }),
    user.client.post("/textai/chat.php", { message: "headache", avatarType: "doctor" }),
    user.client.post("/images/generate.php", { prompt: "a lighthouse" }),
    user.client.post("/videos/generate.php", { prompt: "a calm sea", duration: 5 }),
    user.client.post("/sms/ai-response.php", { message: "hello" }),
  ];
  for (const res of await Promise.all(calls)) expect(res.status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
});

async function open(size: (typeof SIZES)[number], language: Language, client: Client | null = null): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    isMobile: size.isMobile,
    hasTouch: size.isMobile,
  });
  if (client) await context.addCookies(cookiesOf(client, baseUrl));
  await context.addInitScript(
    ([lang, record]) => {
      localStorage.setItem("language", lang);
      if (record) localStorage.setItem("admin_session", record);
    },
    [language, client === admin ? JSON.stringify(adminRecord) : ""] as const,
  );
  return context;
}

/** WCAG relative luminance contrast of two CSS colours as the browser computes them ("rgb(...)"). */
interface FocusFinding {
  element: string;
  outline: string;
  background: string;
  contrast: number;
  width: number;
}

/**
 * Runs in the page: the focus indicator of the focused control (the control, or for a visually hidden
 * input such as a switch's, the element drawn for it) against the colour behind it.
 */
function focusFinding(): FocusFinding | null {
  let el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return null;
  const box = el.getBoundingClientRect();
  if (box.width < 4 || box.height < 4) el = (el.nextElementSibling as HTMLElement | null) ?? el.parentElement ?? el;
  const parse = (color: string) => {
    const m = color.match(/rgba?\(([\d.]+),?\s*([\d.]+),?\s*([\d.]+)(?:,?\s*\/?\s*([\d.]+))?\)/u);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : [0, 0, 0, 0];
  };
  // The colour behind the control: its ancestors' backgrounds, composited from the page up.
  const layers: number[][] = [];
  for (let node = el.parentElement; node; node = node.parentElement) {
    const c = parse(getComputedStyle(node).backgroundColor);
    if (c[3]! > 0) layers.push(c);
    if (c[3] === 1) break;
  }
  let bg = [255, 255, 255];
  for (const [r, g, b, a] of layers.reverse())
    bg = [r! * a! + bg[0]! * (1 - a!), g! * a! + bg[1]! * (1 - a!), b! * a! + bg[2]! * (1 - a!)];
  const style = getComputedStyle(el);
  const ring = parse(style.outlineColor);
  const luminance = ([r, g, b]: number[]) => {
    const channel = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
  };
  const [hi, lo] = [luminance(ring), luminance(bg)].sort((a, b) => b - a);
  const solid = style.outlineStyle === "solid" && ring[3] === 1;
  return {
    element: `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.split(" ").join(".")}` : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 24)}"`,
    outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
    background: `rgb(${bg.map(Math.round).join(", ")})`,
    contrast: solid ? Math.round(((hi! + 0.05) / (lo! + 0.05)) * 100) / 100 : 0,
    width: solid ? parseFloat(style.outlineWidth) : 0,
  };
}

/** Tabs through the first `count` controls of the page: the ones whose ring is missing, thin or faint. */
async function faintFocus(page: Page, count: number): Promise<string[]> {
  const faint: string[] = [];
  await page.locator("body").focus();
  for (let i = 0; i < count; i++) {
    await page.keyboard.press("Tab");
    const found = await page.evaluate(focusFinding);
    if (!found) continue;
    if (found.width < 2 || found.contrast < 3) {
      faint.push(`${found.element}: ${found.outline} on ${found.background} (contrast ${found.contrast})`);
    }
  }
  return [...new Set(faint)];
}

describe.concurrent("a first visit", () => {
  for (const size of SIZES) {
    for (const language of LANGUAGES) {
      const text = TEXT[language];
      const at = `at ${size.width}x${size.height} in ${language}`;

      it(`the home page shows each tool's price from the live pricing table and the packages ${at}`, async () => {
        const pricing = (await admin.get("/admin/wallet-config.php")).body.pricing as {
          feature_type: string;
          tokens_per_unit: number;
        }[];
        const imageCoins = pricing.find((row) => row.feature_type === "image")!.tokens_per_unit;
        const context = await open(size, language);
        const page = (shown = await context.newPage());
        // The packages the page was given, not a read of our own: the files beside this one add
        // packages, and each API process keeps the list a few seconds, so two reads may differ.
        const given = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/storefront.php");
        await page.goto(`${baseUrl}/`);
        const offer = (await (await given).json()) as { packages: unknown[]; currency: string };
        const tools = page.getByTestId("tool-prices");
        await tools.waitFor();
        const features = await tools.locator("li").evaluateAll((items) => items.map((li) => li.getAttribute("data-feature")));
        expect(features.sort()).toEqual(["doctor", "image", "sms", "text", "video"]);
        expect(await tools.locator("li[data-feature='image']").textContent()).toContain(
          text.imagePrice(imageCoins.toLocaleString("en-US")),
        );
        // What a new account starts with is said, and the packages on offer carry their price in the currency.
        await expect(page.locator(".home-prices__lead").textContent()).resolves.toMatch(
          language === "en" ? /new account starts with/u : /الحساب الجديد/u,
        );
        if (offer.packages.length) {
          const prices = await page.locator(".home-prices__price").allTextContents();
          expect(prices.length).toBe(offer.packages.length);
          for (const price of prices) expect(price).toMatch(offer.currency === "USD" ? /\$/u : new RegExp(offer.currency, "u"));
        }
        await screenshot(page, `first-visit/${size.name}/${language}/home`);
        await context.close();
      });

      it(`a guarded page shows Access Denied whose Login returns to that page, never elsewhere ${at}`, async () => {
        const user = await newUser();
        const context = await open(size, language);
        const page = (shown = await context.newPage());
        for (const path of ["/dashboard", "/get-coins", "/usage", "/profile"]) {
          await page.goto(`${baseUrl}${path}`);
          await page.getByRole("heading", { name: text.accessDenied, exact: true }).waitFor();
        }
        await page.goto(`${baseUrl}/usage?tab=history`);
        await page.getByRole("heading", { name: text.accessDenied, exact: true }).waitFor();
        await screenshot(page, `first-visit/${size.name}/${language}/access-denied`);
        await page.getByRole("link", { name: text.login, exact: true }).click();
        await page.waitForURL(/\/login\?next=/u);
        await page.locator("input[name=phone]").fill(user.phone);
        await page.getByLabel(text.password, { exact: true }).fill("secret-pass");
        await page.locator("form button[type=submit]").click();
        await page.waitForURL(`${baseUrl}/usage?tab=history`);

        // A return path to another site is refused: the visitor lands on the dashboard.
        for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
          await context.clearCookies();
          await page.goto(`${baseUrl}/login?next=${encodeURIComponent(next)}`);
          await page.locator("input[name=phone]").fill(user.phone);
          await page.getByLabel(text.password, { exact: true }).fill("secret-pass");
          await page.locator("form button[type=submit]").click();
          await page.waitForURL(`${baseUrl}/dashboard`);
        }
        await context.close();
      });

      it(`the phone field offers the country, checks as it is typed and sends E.164 ${at}`, async () => {
        const context = await open(size, language);
        const page = (shown = await context.newPage());
        await page.goto(`${baseUrl}/signup`);
        // The field's library comes in its own chunk just after the form: then the country list is enabled.
        const country = page.locator("select.phone-field__country:enabled");
        await country.waitFor();
        // The configured country (DEFAULT_PHONE_COUNTRY; the test stack keeps the default, US).
        await expect(country.inputValue()).resolves.toBe("US");
        const phone = page.locator("input[name=phone]");
        await expect(phone.getAttribute("placeholder")).resolves.toBe("(201) 555-0123");
        await phone.fill("0551234");
        await phone.blur();
        const error = page.locator(".phone-field .field-error");
        await expect(error.textContent()).resolves.toContain(text.tooShort);
        await country.selectOption("SA");
        await expect(phone.getAttribute("placeholder")).resolves.toBe("051 234 5678");
        await expect(error.textContent()).resolves.toContain(text.tooShort);
        await phone.fill("055 123 4567");
        await error.waitFor({ state: "detached" });
        await screenshot(page, `first-visit/${size.name}/${language}/signup-phone`);
        const sent = page.waitForRequest((request) => request.url().endsWith("/api/signup.php"));
        await page.locator("input[name=password]").fill("secret-pass");
        await page.locator("form button[type=submit]").click();
        expect((await sent).postDataJSON()).toMatchObject({ phone: "+966551234567" });
        await context.close();
      });

      it(`the back office's tables keep each row's actions in view and Wallet Config keeps Save in reach ${at}`, async () => {
        const context = await open(size, language, admin);
        const page = (shown = await context.newPage());
        await page.goto(`${baseUrl}/admin-dashboard?section=users`);
        const table = page.getByTestId("users-table");
        await table.locator("tbody tr[data-user-id]").first().waitFor();
        // Every action button and every coin figure is inside the screen and not cut by its box.
        const hidden = await table.evaluate((el) => {
          const wrap = el.closest(".admin-table-wrap")!.getBoundingClientRect();
          const screenWidth = document.documentElement.clientWidth;
          const out: string[] = [];
          for (const node of el.querySelectorAll("tbody tr[data-user-id] button, tbody tr[data-user-id] td:nth-child(3)")) {
            const r = node.getBoundingClientRect();
            const inWrap = r.left >= wrap.left - 1 && r.right <= wrap.right + 1;
            const onScreen = r.left >= -1 && r.right <= screenWidth + 1;
            if (!inWrap || !onScreen)
              out.push(`${(node.textContent ?? "").trim()} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
          }
          return out;
        });
        expect(hidden).toEqual([]);
        // The rich subscriber found by phone (a long run has more users than a page holds).
        await page.locator("input[type=search]").fill(rich.phone.slice(1));
        const row = table.locator(`tbody tr[data-user-id="${rich.id}"]`);
        await row.getByRole("button", { name: text.editTier }).waitFor();
        await row.getByRole("button", { name: text.assign }).waitFor();
        await screenshot(page, `first-visit/${size.name}/${language}/admin-users`);

        await page.goto(`${baseUrl}/admin-dashboard?section=walletConfig`);
        const input = page.getByTestId("tiers-table").locator("input[type=number]").first();
        await input.waitFor();
        const state = page.getByTestId("unsaved-state");
        await expect(state.textContent()).resolves.not.toBe(text.unsaved);
        await input.fill(String(Number(await input.inputValue()) + 1));
        await expect(state.textContent()).resolves.toBe(text.unsaved);
        // Save stays on screen wherever the form is scrolled to (edits are never saved here).
        const save = page.locator(".admin-savebar button");
        for (const where of ["top", "bottom"] as const) {
          await page.evaluate((w) => window.scrollTo(0, w === "top" ? 0 : document.body.scrollHeight), where);
          await page
            .getByTestId("tiers-table")
            .locator("tbody tr")
            .nth(where === "top" ? 0 : 9)
            .scrollIntoViewIfNeeded();
          const box = (await save.boundingBox())!;
          expect({ where, inView: box.y >= 0 && box.y + box.height <= size.height }).toEqual({ where, inView: true });
        }
        await screenshot(page, `first-visit/${size.name}/${language}/admin-wallet-config`);
        await context.close();
      });

      it(`names every bar of "Coins by feature", and the login toast covers no chart ${at}`, async ({ expect }) => {
        const context = await open(size, language);
        const page = (shown = await context.newPage());
        await page.goto(`${baseUrl}/admin-login`);
        await page.locator("input[autocomplete=username]").fill(inject("adminUsername"));
        await page.locator("input[type=password]").fill(inject("adminPassword"));
        await page.locator("form button[type=submit]").click();
        await page.waitForURL(/\/admin-dashboard/u);
        const chart = page.locator(".admin-charts .admin-chart").first();
        const labels = chart.locator("svg text[text-anchor='middle']");
        await expect.poll(() => labels.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
        const boxes = await labels.evaluateAll((texts) =>
          texts.map((t) => {
            const r = t.getBoundingClientRect();
            return { text: (t.textContent ?? "").trim(), left: r.left, right: r.right };
          }),
        );
        expect(boxes.every((b) => b.text.length > 0)).toBe(true);
        const sorted = [...boxes].sort((a, b) => a.left - b.left);
        for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.left).toBeGreaterThanOrEqual(sorted[i - 1]!.right);
        // No toast (the login's welcome among them) lies over the first chart.
        const c = (await chart.boundingBox())!;
        const over = [];
        for (const toast of await page.locator(".toast:not(.toast--leaving)").all()) {
          const t = await toast.boundingBox();
          if (t && t.x < c.x + c.width && c.x < t.x + t.width && t.y < c.y + c.height && c.y < t.y + t.height) {
            over.push(await toast.textContent());
          }
        }
        await screenshot(page, `first-visit/${size.name}/${language}/admin-after-login`);
        expect(over).toEqual([]);
        await context.close();
      });

      it(`every focused control shows a solid ring of 3:1 contrast or more on its background ${at}`, async () => {
        const faint: string[] = [];
        const visitor = await open(size, language);
        const page = (shown = await visitor.newPage());
        for (const path of ["/", "/login", "/signup", "/usage"]) {
          await page.goto(`${baseUrl}${path}`);
          await page.locator("main").first().waitFor();
          for (const line of await faintFocus(page, 8)) faint.push(`${path}: ${line}`);
          if (path === "/login") await screenshot(page, `first-visit/${size.name}/${language}/focus-login`);
        }
        await visitor.close();

        const user = await newUser();
        const subscriber = await open(size, language, user.client);
        const dark = (shown = await subscriber.newPage());
        await dark.goto(`${baseUrl}/doctor`);
        await dark.locator("textarea").first().waitFor();
        for (const line of await faintFocus(dark, 8)) faint.push(`/doctor: ${line}`);
        await screenshot(dark, `first-visit/${size.name}/${language}/focus-doctor`);
        await subscriber.close();

        const office = await open(size, language, admin);
        const back = (shown = await office.newPage());
        await back.goto(`${baseUrl}/admin-dashboard?section=users`);
        await back.locator(".admin__content").waitFor();
        if (size.name === "phone") await back.locator("button[aria-controls=admin-menu]").click();
        for (const line of await faintFocus(back, 10)) faint.push(`/admin-dashboard: ${line}`);
        await screenshot(back, `first-visit/${size.name}/${language}/focus-admin`);
        await office.close();
        expect(faint).toEqual([]);
      });
    }
  }
});
