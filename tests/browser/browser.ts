/** Debian's Chromium headless shell driven by playwright-core (no browser download), against the running stack. */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterEach } from "vitest";
import { ensureHeadlessChromium } from "../../scripts/lib/infra";
import { WEB_BUILD_MARKER } from "../setup/build-web";

const SCREENSHOTS = path.resolve("test-artifacts/screenshots");

/** Resolves once the run's web build (started by tests/setup/build-web.ts) has ended well; throws if it failed. */
export async function webBuilt(timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(WEB_BUILD_MARKER)) {
    if (Date.now() > deadline) throw new Error("the web build did not finish");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const { code } = JSON.parse(readFileSync(WEB_BUILD_MARKER, "utf8")) as { code: number };
  if (code !== 0) throw new Error(`the web build failed (exit ${code}); its output is above`);
}

/**
 * The run's headless Chromium. Its contexts (and pages opened on the browser itself) block service
 * workers unless `serviceWorkers: "allow"` is given here or to newContext: the app's worker precaches
 * every hashed asset (about 90 files) when it installs, in every fresh context, which was a third of
 * Chromium's CPU in the suites that do not test it (docs/performance.md, "The test run"). The PWA
 * suite (tests/browser/pwa.test.ts) allows them and tests what they do.
 */
export async function launch(options: { serviceWorkers?: "allow" | "block" } = {}): Promise<Browser> {
  const browser = await launchChromium();
  const serviceWorkers = options.serviceWorkers ?? "block";
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = (contextOptions = {}) => newContext({ serviceWorkers, ...contextOptions });
  browser.newPage = (pageOptions = {}) => newPage({ serviceWorkers, ...pageOptions });
  return browser;
}

async function launchChromium(): Promise<Browser> {
  await webBuilt();
  const browser = await chromium.launch({
    // Installed by the browser projects' setup (tests/setup/build-web.ts) if it was missing.
    executablePath: ensureHeadlessChromium(),
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      // Pages here live seconds: V8's optimizing compilers cost more CPU than they win back (the
      // screens walk: Chromium 43.4 CPU-s with them, 39.7 without; behaviour is the same).
      "--js-flags=--no-opt",
    ],
  });
  const slowdown = Number(process.env.BROWSER_CPU_SLOWDOWN ?? 1);
  if (slowdown > 1) slowPages(browser, slowdown);
  return browser;
}

/**
 * `BROWSER_CPU_SLOWDOWN=4 npx vitest run tests/browser/<file>` runs every page of the file with its
 * main thread that many times slower (Chromium's CPU throttling), as in a loaded full run: a test
 * that reads the screen once instead of waiting for it shows itself in a run or two. For finding
 * races only; the suite never sets it.
 */
function slowPages(browser: Browser, rate: number): void {
  const slow = async (page: Page) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate });
  };
  const watch = (context: BrowserContext) => {
    const newPage = context.newPage.bind(context);
    context.newPage = async () => {
      const page = await newPage();
      await slow(page);
      return page;
    };
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    watch(context);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args) => {
    const page = await newPage(...args);
    await slow(page);
    return page;
  };
}

/**
 * Full-page screenshots for a person to look at are taken when asked (`npm run screenshots`, or
 * `SCREENSHOTS=1`): they are a third of the screens walk's CPU and nothing in a test reads them.
 */
export const TAKE_SCREENSHOTS = process.env.SCREENSHOTS === "1";

export async function screenshot(page: Page, name: string): Promise<void> {
  if (TAKE_SCREENSHOTS) await saveScreenshot(page, name);
}

/**
 * For a file whose tests share one page: what the page showed when a test failed is kept under
 * failed/ on every run, for a person to look at. `page` gives the page as the test left it.
 */
export function keepFailureScreenshots(page: () => Page | undefined): void {
  afterEach(async ({ task }) => {
    const shown = page();
    if (task.result?.state === "fail" && shown) await saveScreenshot(shown, `failed/${task.name}`).catch(() => undefined);
  });
}

async function saveScreenshot(page: Page, name: string): Promise<void> {
  const file = path.join(SCREENSHOTS, `${name}.png`);
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
}

/** axe-core itself, put into a page once per load (page.evaluate is not subject to the page's CSP). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact?: string | null;
  nodes: { target: unknown[] }[];
}
declare const axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };

/**
 * Serious and critical axe violations on the page, as readable lines. `disableRules` skips rules
 * a caller has already run on the same screen (colour contrast does not change with the width).
 * axe runs in the page directly: @axe-core/playwright's builder re-injects it into every frame and
 * finishes each run in a page of its own, which made a check 5 to 10 times slower than the run itself.
 */
export async function seriousViolations(page: Page, disableRules: string[] = []): Promise<string[]> {
  // A toast fading in is half transparent for 200 ms; contrast is judged on what stays on screen.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    (disabled) =>
      axe
        .run(document, {
          resultTypes: ["violations"],
          rules: Object.fromEntries(disabled.map((id) => [id, { enabled: false }])),
        })
        .then((result) =>
          result.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.map((n) => ({ target: n.target })) })),
        ),
    disableRules,
  );
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * Collects every Content-Security-Policy violation the page meets from now on (the
 * `securitypolicyviolation` event and Chromium's console report), as readable lines.
 */
export async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("__reportCspViolation", (line: string) => violations.push(line));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCspViolation: (line: string) => void }).__reportCspViolation;
      report(
        `${location.pathname}: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy/iu.test(m.text())) violations.push(`console: ${m.text().slice(0, 300)}`);
  });
  return violations;
}

/** Switches the page's language with the header's toggle (if it is not `target` already) and waits for it. */
export async function setLanguage(page: Page, target: "en" | "ar"): Promise<void> {
  const current = await page.evaluate(() => document.documentElement.lang);
  if (current !== target) await page.getByTestId("language-toggle").first().click();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, target);
}

/** A test client's session cookies, for a browser context that should be signed in as that client. */
export function cookiesOf(client: { cookieHeader(): string }, url: string) {
  return client
    .cookieHeader()
    .split("; ")
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
    });
}
