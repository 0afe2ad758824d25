/// <reference lib="dom" />
/**
 * The app on a phone like an app (issue 37): the public pages arrive rendered in the visitor's
 * language and are hydrated, not drawn again; the app installs (manifest and service worker valid);
 * the offline page shows with the network off.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { keepFailureScreenshots, launch, screenshot, watchCsp } from "./browser";

const baseUrl = inject("baseUrl");
let browser: Browser;
let shown: Page | undefined;

beforeAll(async () => {
  browser = await launch();
});

keepFailureScreenshots(() => shown);

afterAll(async () => {
  await browser?.close();
});

/** A page in a fresh context (cold cache) that records page errors and nodes removed from #root. */
async function openPage(context: BrowserContext) {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  shown = page;
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  const csp = await watchCsp(page);
  // A hydration that fails renders the page again: the server's nodes leave #root. (React drops the
  // comments that mark a Suspense boundary once it has hydrated it: those are not content.)
  await page.addInitScript(() => {
    const state = window as unknown as { __removedFromRoot: string[] };
    state.__removedFromRoot = [];
    new MutationObserver((records) => {
      for (const record of records) {
        if (!(record.target as Element).closest?.("#root")) continue;
        for (const node of record.removedNodes) {
          if (node.nodeType === Node.COMMENT_NODE) continue;
          state.__removedFromRoot.push(
            `${(node as Element).outerHTML ?? node.textContent} from ${(record.target as Element).className}`,
          );
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return { page, errors, csp };
}

/** True once React has taken over the server's markup (its fiber keys are on the nodes). */
const hydrated = (page: Page, selector: string) =>
  page.waitForFunction((sel) => {
    const node = document.querySelector(sel);
    return node !== null && Object.keys(node).some((key) => key.startsWith("__reactFiber"));
  }, selector);

describe("public pages rendered at build time", () => {
  const cases = [
    { path: "/", language: "en", heading: "h1" },
    { path: "/", language: "ar", heading: "h1" },
    { path: "/login", language: "en", heading: "h1" },
    { path: "/signup", language: "ar", heading: "h1" },
    { path: "/admin-login", language: "ar", heading: "h1" },
  ] as const;

  it.each(cases)("$path in $language: painted with no script, then hydrated in place", async ({ path, language, heading }) => {
    // With JavaScript off the page is all there: its language, direction, heading and inline CSS.
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    await noScript.addCookies([{ name: "language", value: language, url: baseUrl }]);
    const bare = await noScript.newPage();
    const response = await bare.goto(`${baseUrl}${path}`);
    expect(response!.headers()["content-security-policy"]).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/u);
    expect(await bare.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      language,
      language === "ar" ? "rtl" : "ltr",
    ]);
    const text = (await bare.locator(heading).first().textContent())!.trim();
    expect(text.length).toBeGreaterThan(0);
    // Styled by the inline CSS: the page links no stylesheet.
    expect(await bare.locator('link[rel="stylesheet"]').count()).toBe(0);
    expect(await bare.evaluate(() => getComputedStyle(document.body).margin)).toBe("0px");
    await noScript.close();

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    await context.addCookies([{ name: "language", value: language, url: baseUrl }]);
    const { page, errors, csp } = await openPage(context);
    await page.goto(`${baseUrl}${path}`);
    await hydrated(page, heading);
    expect((await page.locator(heading).first().textContent())!.trim()).toBe(text);
    expect(await page.evaluate(() => (window as unknown as { __removedFromRoot: string[] }).__removedFromRoot)).toEqual([]);
    expect(errors).toEqual([]);
    expect(csp).toEqual([]);
    await context.close();
  });

  it("sets the language cookie with the choice, so the next visit arrives in that language", async () => {
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/login`);
    await hydrated(page, "h1");
    await page.getByTestId("language-toggle").first().click();
    await page.waitForFunction(() => document.documentElement.lang === "ar");
    expect((await context.cookies(baseUrl)).find((c) => c.name === "language")?.value).toBe("ar");
    const next = await context.request.get(`${baseUrl}/`);
    expect(await next.text()).toContain('<html lang="ar" dir="rtl">');
    expect(errors).toEqual([]);
    await context.close();
  });
});

interface WebManifest {
  name: string;
  short_name: string;
  lang: string;
  dir: string;
  start_url: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(data: Buffer): string {
  expect(data.subarray(1, 4).toString("latin1")).toBe("PNG");
  return `${data.readUInt32BE(16)}x${data.readUInt32BE(20)}`;
}

describe("installable app", () => {
  it("links a valid manifest per language, and its service worker takes the page", async () => {
    const names = new Set<string>();
    for (const language of ["en", "ar"] as const) {
      const context = await browser.newContext();
      await context.addCookies([{ name: "language", value: language, url: baseUrl }]);
      const { page } = await openPage(context);
      await page.goto(`${baseUrl}/`);
      const href = await page.locator('link[rel="manifest"]').getAttribute("href");
      const manifest = (await (await context.request.get(`${baseUrl}${href}`)).json()) as WebManifest;
      expect(manifest).toMatchObject({
        lang: language,
        dir: language === "ar" ? "rtl" : "ltr",
        start_url: "/",
        display: "standalone",
        theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/u),
        background_color: expect.stringMatching(/^#[0-9a-f]{6}$/u),
      });
      names.add(manifest.name);
      expect(manifest.short_name.length).toBeLessThanOrEqual(12);
      for (const icon of manifest.icons.filter((i) => i.type === "image/png")) {
        expect(pngSize(await (await context.request.get(`${baseUrl}${icon.src}`)).body()), icon.src).toBe(icon.sizes);
      }
      expect(manifest.icons.some((i) => i.purpose === "maskable" && i.sizes === "512x512")).toBe(true);
      expect(manifest.icons.some((i) => i.purpose === "any" && i.sizes === "192x192")).toBe(true);

      const scriptUrl = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active!.scriptURL));
      expect(scriptUrl).toBe(`${baseUrl}/sw.js`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      // Chromium's own verdict on installability (manifest, icons, service worker, start_url).
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
        installabilityErrors: { errorId: string }[];
      };
      expect(installabilityErrors.map((e) => e.errorId)).toEqual([]);
      await context.close();
    }
    expect(names.size).toBe(2);
  });

  it("shows the bilingual offline page for a page asked for with the network off, and never caches the API", async () => {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1366, height: 900 },
    ]) {
      const context = await browser.newContext({ viewport, isMobile: viewport.width < 500 });
      const { page, csp } = await openPage(context);
      await page.goto(`${baseUrl}/`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await context.setOffline(true);
      await page.goto(`${baseUrl}/dashboard`);
      await page.getByRole("heading", { name: "You are offline" }).waitFor();
      await page.getByRole("heading", { name: "أنت غير متصل بالإنترنت" }).waitFor();
      expect(await page.locator('section[lang="ar"]').getAttribute("dir")).toBe("rtl");
      // The API is never answered from a cache: offline, a call fails.
      const api = await page.evaluate(() =>
        fetch("/api/health").then(
          (r) => r.status,
          () => "failed",
        ),
      );
      expect(api).toBe("failed");
      await screenshot(page, `offline-${viewport.width}`);
      await context.setOffline(false);
      const cacheNames = await page.evaluate(async () => {
        const urls: string[] = [];
        for (const name of await caches.keys()) {
          for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
        }
        return urls;
      });
      expect(cacheNames.filter((url) => url.startsWith("/api"))).toEqual([]);
      expect(cacheNames).toContain("/offline.html");
      expect(csp).toEqual([]);
      await context.close();
    }
  });
});
