/**
 * The web bundle the browser suites run: the home page's initial JavaScript within the budget
 * of scripts/lib/bundle.ts, and the API sending the build's precompressed copies as they are.
 */
import { readFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { BUDGET_BYTES, describeBundle, measureBundle } from "../../scripts/lib/bundle";
import { readManifest } from "../../scripts/lib/manifest";
import en from "@storefront/shared/i18n/en.json";
import { launch, webBuilt } from "./browser";

const baseUrl = inject("baseUrl");
const dist = path.resolve("web/dist");

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request without any decoding, so the bytes on the wire can be checked. */
function get(pathname: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(pathname, baseUrl), { method, headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${method} ${pathname} timed out`)));
    req.on("error", reject);
    req.end();
  });
}

async function entryScript(): Promise<string> {
  const page = await get("/");
  const src = /<script type="module" crossorigin src="([^"]+)"/u.exec(page.body.toString("utf8"))?.[1];
  expect(src, "index.html names its entry script").toMatch(/^\/assets\/index-[\w-]+\.js$/u);
  return src!;
}

beforeAll(() => webBuilt());

describe("web bundle", () => {
  it("keeps the home page's initial JavaScript under 100 KB gzipped, every copy intact", () => {
    const report = measureBundle(dist);
    console.log(describeBundle(report).join("\n"));
    expect(report.problems).toEqual([]);
    expect(report.initial.length).toBeGreaterThan(0);
    expect(report.initialGzip).toBeGreaterThan(0);
    expect(report.initialGzip).toBeLessThan(BUDGET_BYTES);
    // The copies really are compressed: far smaller than the files.
    expect(report.initialGzip).toBeLessThan(report.initialRaw / 2);
    expect(report.routes.map((r) => r.screen)).toEqual(expect.arrayContaining(["Home", "Dashboard", "TextAI", "SmsAI"]));
  });

  it("ships react-router's production build, without its development-only warnings", () => {
    const firstJs = measureBundle(dist)
      .initial.map((f) => readFileSync(path.join(dist, f.file), "utf8"))
      .join("\n");
    // The router is there (a warning both builds keep)...
    expect(firstJs).toContain("You should call navigate() in a React.useEffect()");
    // ...without the texts its package's default (development) build shows when ENABLE_DEV_WARNINGS is on.
    expect(firstJs).not.toContain("Hey developer");
    expect(firstJs).not.toContain("React Router default ErrorBoundary");
  });

  it("sends the brotli or gzip copy to clients that accept it, and the file to those that do not", async () => {
    const script = await entryScript();
    const original = readFileSync(path.join(dist, script));

    const br = await get(script, { "Accept-Encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/^(?:application|text)\/javascript/u);
    expect(br.headers.vary).toMatch(/Accept-Encoding/iu);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.body.length).toBeLessThan(original.length / 2);
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);

    const gzip = await get(script, { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(original)).toBe(true);

    const plain = await get(script, { "Accept-Encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/iu);
    expect(plain.body.equals(original)).toBe(true);

    // A client that refuses brotli gets gzip even when it lists brotli.
    const noBr = await get(script, { "Accept-Encoding": "br;q=0, gzip" });
    expect(noBr.headers["content-encoding"]).toBe("gzip");

    const again = await get(script, { "Accept-Encoding": "gzip", "If-None-Match": String(gzip.headers.etag) });
    expect(again.status).toBe(304);

    const head = await get(script, { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(Number(head.headers["content-length"])).toBe(br.body.length);
    expect(head.body.length).toBe(0);

    const part = await get(script, { "Accept-Encoding": "br", Range: "bytes=0-99" });
    expect(part.status).toBe(206);
    expect(part.headers["content-encoding"]).toBe("br");
    expect(part.body.equals(br.body.subarray(0, 100))).toBe(true);
  });

  it("answers a failed precondition or range with a plain error, not the file's encoding", async () => {
    const script = await entryScript();
    for (const [headers, status] of [
      [{ "Accept-Encoding": "br", Range: "bytes=99999999-" }, 416],
      [{ "Accept-Encoding": "gzip", "If-Match": '"not-the-etag"' }, 412],
    ] as const) {
      const res = await get(script, headers);
      expect(res.status).toBe(status);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.headers["cache-control"]).toBeUndefined();
      expect(res.headers["content-type"]).toMatch(/^application\/json/u);
      expect(JSON.parse(res.body.toString("utf8"))).toMatchObject({ success: false });
    }
  });

  it("answers a missing asset with 404, and every client-side route with index.html to revalidate", async () => {
    const missing = await get("/assets/index-gone.js", { "Accept-Encoding": "gzip, br" });
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toMatch(/^text\/plain/u);
    expect(missing.headers["content-encoding"]).toBeUndefined();

    const html = readFileSync(path.join(dist, "index.html"));
    // The public pages come already rendered (pages/<language>/), every other route gets the shell.
    for (const [route, file] of [
      ["/", "pages/en/index.html"],
      ["/dashboard", "index.html"],
      ["/sms-ai", "index.html"],
      ["/no-such-page", "index.html"],
    ] as const) {
      const page = await get(route, { "Accept-Encoding": "gzip, br" });
      expect(page.status, route).toBe(200);
      expect(page.headers["content-type"], route).toMatch(/^text\/html/u);
      expect(page.headers["cache-control"], route).toBe("no-cache");
      expect(page.headers.vary, route).toMatch(/Accept-Encoding/iu);
      expect(page.headers["content-encoding"], route).toBe("br");
      expect(brotliDecompressSync(page.body).equals(readFileSync(path.join(dist, file))), route).toBe(true);
    }
    const plainPage = await get("/dashboard");
    expect(plainPage.headers["content-encoding"]).toBeUndefined();
    expect(plainPage.body.equals(html)).toBe(true);

    const api = await get("/api/no-such-call");
    expect(api.status).toBe(404);
    expect(api.headers["content-type"]).toMatch(/^application\/json/u);
  });

  it("leaves the sign-in texts out of the home page's first load, and gives them to the sign-in page", async () => {
    const manifest = readManifest(dist);
    const signInTexts = `/${manifest["virtual:i18n-sign-in/en"]?.file}`;
    expect(signInTexts).toMatch(/^\/assets\/en-[\w-]+\.js$/u);
    // A text of the sign-in forms is in their part, not in the part every public page loads.
    const hint = en.auth.phoneHint;
    expect(readFileSync(path.join(dist, signInTexts), "utf8")).toContain(hint);
    expect(readFileSync(path.join(dist, manifest["virtual:i18n-public/en"]!.file), "utf8")).not.toContain(hint);
    const browser = await launch();
    try {
      for (const [route, wanted] of [
        ["/", false],
        ["/login", true],
      ] as const) {
        const page = await browser.newPage();
        const requested: string[] = [];
        page.on("request", (r) => requested.push(new URL(r.url()).pathname));
        await page.goto(`${baseUrl}${route}`);
        // main.tsx hydrates once the screen and the texts it waits for are in: by then each is asked for or never will be.
        await page.waitForFunction(() =>
          Object.keys(document.querySelector("h1") ?? {}).some((k) => k.startsWith("__reactFiber")),
        );
        expect(requested.includes(signInTexts), `${route}: ${requested.join(" ")}`).toBe(wanted);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });

  it("asks for the page's screen chunk before its texts, not after them", async () => {
    const browser = await launch();
    try {
      for (const [route, chunk] of [
        ["/", /\/assets\/Home-[\w-]+\.js$/u],
        ["/login", /\/assets\/Login-[\w-]+\.js$/u],
      ] as const) {
        const page = await browser.newPage();
        const requested: string[] = [];
        page.on("request", (r) => requested.push(new URL(r.url()).pathname));
        await page.goto(`${baseUrl}${route}`);
        await page.locator("h1").first().waitFor();
        const screen = requested.findIndex((p) => chunk.test(p));
        // The public English texts: the smallest of the catalog chunks, named after the language.
        const texts = requested.findIndex((p) => /\/assets\/en-[\w-]+\.js$/u.test(p));
        expect(screen, `${route}: ${requested.join(" ")}`).toBeGreaterThan(-1);
        expect(texts, `${route}: ${requested.join(" ")}`).toBeGreaterThan(-1);
        expect(screen, `${route}: ${requested.join(" ")}`).toBeLessThan(texts);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });
});
