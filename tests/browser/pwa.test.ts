/// <reference lib="dom" />
/**
 * The app on a phone like an app (issue 37): the public pages arrive rendered in the visitor's
 * language and are hydrated, not drawn again; the app installs (manifest and service worker valid);
 * the offline page shows with the network off.
 */
import { once } from "node:events";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { securityHeaders } from "../../api/src/middleware/security-headers";
import { webApp } from "../../api/src/middleware/web-app";
import { ensureChromium } from "../../scripts/lib/infra";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { giveCoins, newUser, type Client } from "../support/client";
import { keepFailureScreenshots, launch, screenshot, watchCsp } from "./browser";

const baseUrl = inject("baseUrl");
let browser: Browser;
let shown: Page | undefined;

beforeAll(async () => {
  // The service worker is what this suite tests (the other browser suites block it).
  browser = await launch({ serviceWorkers: "allow" });
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
    // A form takes input only once the script has it: a click before would be the browser's own
    // GET, the password in the address (and in every log and history on its way), and what was
    // typed before hydration would be reset to the empty state.
    const submit = bare.locator("form button[type=submit]");
    const hasForm = (await submit.count()) > 0;
    if (hasForm) {
      expect(await submit.isDisabled()).toBe(true);
      expect(await bare.locator("form input[type=password]").isEditable()).toBe(false);
    }
    await noScript.close();

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    await context.addCookies([{ name: "language", value: language, url: baseUrl }]);
    const { page, errors, csp } = await openPage(context);
    await page.goto(`${baseUrl}${path}`);
    await hydrated(page, heading);
    expect((await page.locator(heading).first().textContent())!.trim()).toBe(text);
    if (hasForm) await page.locator("form button[type=submit]:enabled").waitFor();
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

  it("tells of a new version once it is installed, and reloads into it when the user chooses", async () => {
    // A deploy, as the browser sees one (its service worker's script changes), on a copy of the
    // build served by the API's own web-app middleware: the shared build stays as it is.
    const dist = mkdtempSync(path.join(tmpdir(), "web-deploy-"));
    cpSync(path.resolve("web/dist"), dist, { recursive: true });
    const app = express().use(securityHeaders());
    app.use("/api", (_req, res) => void res.status(401).json({ success: false, error: "Not signed in" }));
    const server = app.use(webApp(dist)).listen(0, "127.0.0.1");
    await once(server, "listening");
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const language of ["en", "ar"] as const) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
        await context.addCookies([{ name: "language", value: language, url: origin }]);
        const { page, errors } = await openPage(context);
        await page.goto(`${origin}/`);
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
        expect(await page.getByTestId("update-prompt").count()).toBe(0);
        for (const file of ["sw.js", "sw.js.br", "sw.js.gz"]) rmSync(path.join(dist, file), { force: true });
        writeFileSync(
          path.join(dist, "sw.js"),
          `${readFileSync(path.resolve("web/dist/sw.js"), "utf8")}\n// ${language}: the next version\n`,
        );
        await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r!.update()));
        const prompt = page.getByTestId("update-prompt");
        await prompt.waitFor();
        await screenshot(page, `update-prompt-${language}-390`);
        // Nothing reloads until the user says so; then the new version takes the page.
        expect(
          await page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).type),
        ).toBe("navigate");
        const reloaded = page.waitForEvent("load");
        await prompt.getByRole("button").first().click();
        await reloaded;
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
        expect(
          await page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).type),
        ).toBe("reload");
        expect(await page.getByTestId("update-prompt").count()).toBe(0);
        expect(errors.filter((e) => !e.includes("401"))).toEqual([]);
        await context.close();
      }
    } finally {
      server.close();
      rmSync(dist, { recursive: true, force: true });
    }
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

/** The browser context signed in as `client` (its session cookie). */
async function signIn(context: BrowserContext, client: Client): Promise<void> {
  const cookies = client
    .cookieHeader()
    .split("; ")
    .map((pair) => pair.split("="))
    .map(([name, ...value]) => ({ name: name!, value: value.join("="), url: baseUrl }));
  await context.addCookies(cookies);
}

describe("notifications", () => {
  it("shows the notification a push carries, in its language, and opens its screen when tapped", async () => {
    const { client } = await newUser();
    // The full Chromium: the headless shell shows no notifications.
    const full = await chromium.launch({
      executablePath: ensureChromium(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
    const context = await full.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    await signIn(context, client);
    await context.grantPermissions(["notifications"], { origin: baseUrl });
    const { page, errors } = await openPage(context);
    await page.goto(`${baseUrl}/dashboard`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
          const ours = registrations.find((r) => !r.isDeleted && r.scopeURL === `${baseUrl}/`);
          if (ours) resolve(ours.registrationId);
        },
      );
    });
    await cdp.send("ServiceWorker.enable");
    const videoId = "6b0965fd15e869b477642737";
    const payload = {
      kind: "video.completed",
      id: videoId,
      title: "الفيديو جاهز",
      body: "اضغط لمشاهدته.",
      lang: "ar",
      url: "/video-test",
      tag: `video-${videoId}`,
    };
    // Chromium hands the data to the service worker's push event as a push service's message would.
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: `${baseUrl}/`,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });
    const shown = () =>
      page.evaluate(() =>
        navigator.serviceWorker.ready
          .then((r) => r.getNotifications())
          .then((list) =>
            list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, lang: n.lang, dir: n.dir, data: n.data as unknown })),
          ),
      );
    await expect
      .poll(shown, { timeout: 10_000 })
      .toEqual([
        { title: payload.title, body: payload.body, tag: payload.tag, lang: "ar", dir: "rtl", data: { url: "/video-test" } },
      ]);

    // The tap: the service worker's notificationclick, with the notification it showed.
    const worker = context.serviceWorkers().find((w) => w.url() === `${baseUrl}/sw.js`)!;
    await worker.evaluate(async () => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(event: Event): boolean };
      const [notification] = await scope.registration.getNotifications();
      const NotificationEventClass = (
        self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }
      ).NotificationEvent;
      scope.dispatchEvent(new NotificationEventClass("notificationclick", { notification: notification! }));
    });
    await page.waitForURL(`${baseUrl}/video-test`);
    await page.locator("#tab-generate").waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((l) => l.length))).toBe(
      0,
    );
    // The script of an event the test made cannot extend it (waitUntil): that one error is expected.
    expect(errors.filter((e) => !/waitUntil|InvalidStateError/u.test(e))).toEqual([]);
    await full.close();
  });

  for (const language of ["en", "ar"] as const) {
    it(`offers notifications in ${language} right after a video starts, not before, and "not now" puts it away`, async () => {
      const { client, id } = await newUser();
      await giveCoins(id, 5000);
      for (const viewport of [
        { width: 390, height: 844 },
        { width: 1366, height: 900 },
      ]) {
        const context = await browser.newContext({ viewport, isMobile: viewport.width < 500 });
        await signIn(context, client);
        await context.addCookies([{ name: "language", value: language, url: baseUrl }]);
        await context.addInitScript((lang) => {
          localStorage.setItem("language", lang);
          // The headless shell answers "denied" for notifications whatever is granted; the offer is for
          // a browser that has not been asked yet.
          Object.defineProperty(Notification, "permission", { get: () => "default" });
        }, language);
        const { page } = await openPage(context);
        await page.goto(`${baseUrl}/video-test`);
        await page.locator("#tab-generate").waitFor();
        expect(await page.getByTestId("push-offer").count()).toBe(0);
        await page.locator("textarea").first().fill("waves on a beach");
        await page.locator('button[type="submit"]').click();
        await page.getByTestId("push-offer").waitFor();
        await screenshot(page, `push-offer-${language}-${viewport.width}`);
        await page.getByTestId("push-offer").locator("button").nth(1).click();
        await page.getByTestId("push-offer").waitFor({ state: "detached" });
        await context.close();
      }
    });
  }
});
