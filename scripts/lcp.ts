/**
 * `npm run lcp`: Largest Contentful Paint of every public page (home, login, signup, admin login) in
 * English and Arabic on a slow 4G phone, beside a one-screen static HTML page (the floor) measured
 * the same way in the same run, and each page's ratio to the floor (docs/performance.md, "First
 * paint on slow 4G"). Run after `npm run build -w web`; `--write` records the table in
 * docs/performance.md between the "lcp figures" markers.
 *
 * Conditions: Debian's Chromium (playwright-core, as tests/browser/browser.ts launches it), a
 * 390x844 phone viewport, 150 ms round trip, 1.6 Mbps down, 750 kbps up, the CPU slowed 4x, a fresh
 * browser context (cold cache) per load, median of LCP_RUNS (3) loads. The pages are served by the
 * API's own web-app middleware and security headers from web/dist on 127.0.0.1 (the same bytes,
 * headers and compression as `npm start`); the calls a page makes after its first paint (the session
 * check) are answered 401 without a database, as for a visitor who is not signed in.
 * The runs interleave the pages (floor, then each page, three times over), so a busy moment on a
 * shared machine falls on every page alike rather than on one.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express from "express";
import { chromium, type Browser } from "playwright-core";
import { LANGUAGES, PRERENDERED_PAGES, type Language } from "@storefront/shared";
import { securityHeaders } from "../api/src/middleware/security-headers";
import { webApp } from "../api/src/middleware/web-app";
import { writeDocSection } from "./lib/doc-section";
import { ensureHeadlessChromium } from "./lib/infra";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Number(process.env.LCP_RUNS ?? 3);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 15) throw new Error("LCP_RUNS must be an integer from 1 to 15");

/** Slow 4G as the issue measured it: bytes per second for the throughput fields. */
const NETWORK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };
const CPU_SLOWDOWN = 4;
const VIEWPORT = { width: 390, height: 844 };

/** The floor: one screen of static HTML, a heading and a paragraph, its CSS inline. */
const FLOOR_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1.0" />
<title>Floor</title><style>body{margin:0;padding:24px;font-family:system-ui,sans-serif;background:#f6f7fb;color:#1b1e2b}h1{font-size:32px;margin:0 0 12px}p{font-size:17px;line-height:1.5}</style></head>
<body><h1>AI tools with a coin wallet</h1><p>Chat, Doctor, images, video and SMS: pay with coins, only for what you use. A static page with no script, the fastest a page can paint here.</p></body></html>`;
const FLOOR_PATH = "/__lcp-floor";

interface Target {
  label: string;
  path: string;
  language: Language;
}

interface Load {
  lcp: number;
  bytes: number;
}

function startServer(): Promise<{ origin: string; close: () => Promise<void> }> {
  const app = express();
  app.use(securityHeaders());
  app.get(FLOOR_PATH, (_req, res) => {
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(FLOOR_PAGE);
  });
  app.use("/api", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.status(401).json({ success: false, error: "Not signed in" });
  });
  app.use(webApp(path.join(root, "web/dist")));
  const server = app.listen(0, "127.0.0.1");
  return once(server, "listening").then(() => ({
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }));
}

/** One cold load: LCP (ms from navigation start) and the bytes transferred until the page settled. */
async function measure(browser: Browser, origin: string, target: Target): Promise<Load> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  try {
    if (target.language === "ar") await context.addCookies([{ name: "language", value: "ar", url: origin }]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", NETWORK);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    let bytes = 0;
    cdp.on("Network.loadingFinished", (event: { encodedDataLength: number }) => {
      bytes += event.encodedDataLength;
    });
    await page.goto(origin + target.path, { waitUntil: "networkidle" });
    const lcp = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries();
            resolve(entries[entries.length - 1]!.startTime);
          }).observe({ type: "largest-contentful-paint", buffered: true });
        }),
    );
    if (target.path !== FLOOR_PATH) {
      const lang = await page.evaluate(() => document.documentElement.lang);
      if (lang !== target.language) throw new Error(`${target.label} was shown in ${lang}, not ${target.language}`);
    }
    return { lcp, bytes };
  } finally {
    await context.close();
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const ms = (value: number): string => `${Math.round(value).toLocaleString("en-US")} ms`;

async function main(): Promise<void> {
  const floor: Target = { label: "floor", path: FLOOR_PATH, language: "en" };
  const targets: Target[] = PRERENDERED_PAGES.flatMap((page) =>
    LANGUAGES.map((language) => ({ label: `${page} ${language}`, path: page, language })),
  );
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: ensureHeadlessChromium(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"],
  });
  const loads = new Map<Target, Load[]>([floor, ...targets].map((target) => [target, []]));
  try {
    for (let run = 1; run <= RUNS; run++) {
      for (const target of [floor, ...targets]) {
        const load = await measure(browser, server.origin, target);
        loads.get(target)!.push(load);
        console.error(`run ${run}/${RUNS} ${target.label}: LCP ${ms(load.lcp)}, ${(load.bytes / 1024).toFixed(1)} KB`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }

  const floorLcp = median(loads.get(floor)!.map((l) => l.lcp));
  const cell = (target: Target): string => {
    const runs = loads.get(target)!;
    const lcp = median(runs.map((l) => l.lcp));
    const kb = median(runs.map((l) => l.bytes)) / 1024;
    return `${ms(lcp)} (${kb.toFixed(0)} KB) **${(lcp / floorLcp).toFixed(2)}x**`;
  };
  const byPage = (page: string, language: Language) => targets.find((t) => t.path === page && t.language === language)!;
  const worst = Math.max(...targets.map((t) => median(loads.get(t)!.map((l) => l.lcp)) / floorLcp));
  const lines = [
    `Median of ${RUNS} cold loads, 390 px, 150 ms RTT, 1.6 Mbps down, 750 kbps up, CPU 4x slower; LCP (bytes transferred) and **ratio to the floor**.`,
    `Floor (one-screen static HTML, inline CSS), same run: **${ms(floorLcp)}** (runs: ${loads
      .get(floor)!
      .map((l) => ms(l.lcp))
      .join(", ")}).`,
    "",
    "| page | English | Arabic |",
    "|---|---|---|",
    ...PRERENDERED_PAGES.map((page) => `| \`${page}\` | ${cell(byPage(page, "en"))} | ${cell(byPage(page, "ar"))} |`),
    "",
    `Worst ratio to the floor: **${worst.toFixed(2)}x** (goal: at most 2x).`,
  ];
  console.log(lines.join("\n"));

  if (process.argv.includes("--write")) writeDocSection(path.join(root, "docs/performance.md"), "lcp figures", lines);
  if (worst > 2) process.exitCode = 1;
}

await main();
