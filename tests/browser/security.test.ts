/// <reference lib="dom" />
/**
 * docs/security.md "Web client protections" as the browser sees them: the built app has no inline
 * script or style, the app and Swagger UI run under the Content-Security-Policy without a single
 * violation, and the app's own calls pass the cross-site checks.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { uniquePhone } from "../support/client";
import { keepFailureScreenshots, launch, watchCsp } from "./browser";

const baseUrl = inject("baseUrl");
let browser: Browser;
let page: Page;
let violations: string[];

beforeAll(async () => {
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  violations = await watchCsp(page);
});

keepFailureScreenshots(() => page);

afterAll(async () => {
  await browser?.close();
});

describe("content security policy", () => {
  it("builds an index.html with no inline script, style element or style attribute", () => {
    const html = readFileSync(path.resolve("web/dist/index.html"), "utf8");
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/giu)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/u);
      expect(body!.trim()).toBe("");
    }
    expect(html).not.toMatch(/<style\b/iu);
    expect(html).not.toMatch(/\sstyle=/iu);
    expect(html).not.toMatch(/\son[a-z]+=/iu);
  });

  it("serves the app with the policy and the other headers", async () => {
    for (const url of [`${baseUrl}/`, `${baseUrl}/login`]) {
      const res = await fetch(url);
      expect(res.headers.get("content-security-policy"), url).toContain("script-src 'self'");
      expect(res.headers.get("x-content-type-options"), url).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), url).toBe("DENY");
      expect(res.headers.get("referrer-policy"), url).toBe("same-origin");
    }
  });

  it("signs up, logs in and changes the password through the app's own calls without a violation", async () => {
    const phone = uniquePhone();
    await page.goto(`${baseUrl}/login`);
    const call = (url: string, body: unknown) =>
      page.evaluate(
        async ([u, b]) =>
          (await fetch(u as string, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(b) }))
            .status,
        [url, body] as const,
      );
    expect(await call("/api/signup.php", { phone, password: "first-pass" })).toBe(201);
    expect(await call("/api/login-session-fix.php", { phone, password: "first-pass" })).toBe(200);
    expect(await call("/api/user/change-password.php", { currentPassword: "first-pass", newPassword: "second-pass" })).toBe(200);
    await page.goto(`${baseUrl}/dashboard`);
    await page.locator(".tool-card").first().waitFor();
    for (const screen of [
      "/",
      "/signup",
      "/text-ai",
      "/doctor",
      "/image-ai",
      "/video-test",
      "/sms-ai",
      "/profile",
      "/admin-login",
    ]) {
      await page.goto(`${baseUrl}${screen}`);
      await page.waitForLoadState("networkidle");
    }
    expect(violations).toEqual([]);
  });

  it("renders Swagger UI at /api/docs without a violation", async () => {
    // The documentation is for administrators unless API_DOCS_PUBLIC=true.
    const login = await page.evaluate(
      async ([username, password]) =>
        (
          await fetch("/api/admin/login.php", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ username, password }),
          })
        ).status,
      [inject("adminUsername"), inject("adminPassword")] as const,
    );
    expect(login).toBe(200);
    await page.goto(`${baseUrl}/api/docs`);
    await page.locator(".swagger-ui .info .title").waitFor();
    await page.locator(".opblock").first().waitFor();
    expect(violations).toEqual([]);
  });

  it("cannot be framed", async () => {
    const res = await fetch(`${baseUrl}/api/docs`);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});
