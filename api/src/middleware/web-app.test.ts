import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gzipSync } from "node:zlib";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chooseEncoding, webApp } from "./web-app";

describe("chooseEncoding", () => {
  it.each([
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["BR;Q=1, GZIP;q=0.8", "br"],
    ["gzip", "gzip"],
    ["gzip;q=0", undefined],
    ["deflate", undefined],
    ["identity", undefined],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["gzip;q=abc", "gzip"],
    ["", undefined],
    [undefined, undefined],
  ])("%s -> %s", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

/** A raw GET (no decoding) against a throw-away server with the web app of `dist`. */
async function served(dist: string, memoryBytes?: number) {
  const app = express().use(webApp(dist, memoryBytes));
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const get = (url: string, headers: Record<string, string> = {}, method = "GET") =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: url, headers, method }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on("error", reject);
    });
  return { get, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("webApp's /assets/ files", () => {
  const script = Buffer.from("console.log('a hashed chunk');\n");
  const brotli = brotliCompressSync(script);
  let dist: string;

  beforeEach(() => {
    dist = mkdtempSync(path.join(tmpdir(), "web-dist-"));
    mkdirSync(path.join(dist, "assets"));
    writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>app</title>");
    writeFileSync(path.join(dist, "assets/app-1a2b.js"), script);
    writeFileSync(path.join(dist, "assets/app-1a2b.js.br"), brotli);
    writeFileSync(path.join(dist, "assets/app-1a2b.js.gz"), gzipSync(script));
  });
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  it("are read once and answered from memory, with express.static's validators and a 304 for a known ETag", async () => {
    const web = await served(dist);
    try {
      const first = await web.get("/assets/app-1a2b.js", { "Accept-Encoding": "br, gzip" });
      expect(first.status).toBe(200);
      expect(first.body.equals(brotli)).toBe(true);
      expect(first.headers).toMatchObject({
        "content-encoding": "br",
        "content-type": expect.stringMatching(/^(?:text|application)\/javascript/u),
        "cache-control": "public, max-age=31536000, immutable",
        vary: "Accept-Encoding",
        etag: expect.stringMatching(/^W\/"[0-9a-f]+-[0-9a-f]+"$/u),
        "content-length": String(brotli.length),
      });
      rmSync(path.join(dist, "assets/app-1a2b.js.br"));
      const again = await web.get("/assets/app-1a2b.js", { "Accept-Encoding": "br" });
      expect(again.body.equals(brotli)).toBe(true);
      const unchanged = await web.get("/assets/app-1a2b.js", { "Accept-Encoding": "br", "If-None-Match": first.headers.etag! });
      expect(unchanged.status).toBe(304);
      expect(unchanged.body.length).toBe(0);
      expect(unchanged.headers).toMatchObject({ etag: first.headers.etag, "cache-control": first.headers["cache-control"] });
      expect(unchanged.headers).not.toHaveProperty("content-encoding");
      expect(unchanged.headers).not.toHaveProperty("content-type");
      const head = await web.get("/assets/app-1a2b.js", { "Accept-Encoding": "br" }, "HEAD");
      expect(head.headers["content-length"]).toBe(String(brotli.length));
      expect(head.body.length).toBe(0);
      // A dotfile under /assets/ is not served, from memory or disk.
      writeFileSync(path.join(dist, "assets/.env"), "SECRET=1");
      for (const dotted of ["/assets/.env", "/assets/sub/../.env"]) expect((await web.get(dotted)).status, dotted).toBe(404);
      const plain = await web.get("/assets/app-1a2b.js");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body.equals(script)).toBe(true);
    } finally {
      await web.close();
    }
  });

  it("leave ranges, preconditions, missing files and what is over the memory limit to the disk", async () => {
    const web = await served(dist, script.length);
    try {
      const whole = await web.get("/assets/app-1a2b.js");
      const range = await web.get("/assets/app-1a2b.js", { Range: "bytes=0-6" });
      expect(range.status).toBe(206);
      expect(range.body.toString()).toBe("console");
      // The same validators whichever path answers, so a cache's revalidation holds across them.
      expect(range.headers.etag).toBe(whole.headers.etag);
      expect((await web.get("/assets/app-1a2b.js", { "If-Match": '"not-the-etag"' })).status).toBe(412);
      expect((await web.get("/assets/app-1a2b.js", { "If-Match": whole.headers.etag! })).status).toBe(200);
      expect((await web.get("/assets/gone-9z.js")).status).toBe(404);
      // Out of /assets/ by a dot segment: served as express.static does, never as an immutable asset.
      for (const climb of ["/assets/../index.html", "/assets/%2e%2e/index.html"]) {
        expect((await web.get(climb)).headers["cache-control"], climb).toBe("no-cache");
      }
      // The plain file fills the limit exactly and stays; the brotli copy does not fit (read each time).
      expect((await web.get("/assets/app-1a2b.js", { "Accept-Encoding": "br" })).headers["content-encoding"]).toBe("br");
      rmSync(path.join(dist, "assets/app-1a2b.js"));
      rmSync(path.join(dist, "assets/app-1a2b.js.br"));
      rmSync(path.join(dist, "assets/app-1a2b.js.gz"));
      const fallback = await web.get("/assets/app-1a2b.js", { "Accept-Encoding": "br" });
      expect(fallback.headers["content-encoding"]).toBeUndefined();
      expect(fallback.body.equals(script)).toBe(true);
    } finally {
      await web.close();
    }
  });
});

describe("webApp's prerendered public pages", () => {
  const css = "body{color:red}";
  const page = (language: string) =>
    `<!doctype html><html lang="${language}"><style>${css}</style><div id="root">${language}</div>`;
  let dist: string;

  beforeEach(() => {
    dist = mkdtempSync(path.join(tmpdir(), "web-dist-"));
    writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>shell</title>");
    for (const language of ["en", "ar"]) {
      mkdirSync(path.join(dist, "pages", language), { recursive: true });
      writeFileSync(path.join(dist, "pages", language, "index.html"), page(language));
      writeFileSync(path.join(dist, "pages", language, "login.html"), page(language));
      writeFileSync(path.join(dist, "pages", language, "login.html.br"), brotliCompressSync(page(language)));
    }
  });
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  it("sends the page of the cookie's language, with a policy allowing exactly its inline style", async () => {
    const web = await served(dist);
    try {
      const english = await web.get("/");
      expect(english.body.toString()).toBe(page("en"));
      expect(english.headers.vary?.split(", ").sort()).toEqual(["Accept-Encoding", "Cookie"]);
      expect(english.headers["cache-control"]).toBe("no-cache");
      const hash = createHash("sha256").update(css).digest("base64");
      expect(english.headers["content-security-policy"]).toContain(`style-src 'self' 'sha256-${hash}';`);
      expect(english.headers["content-security-policy"]).not.toContain("unsafe-inline");

      const arabic = await web.get("/login/", { Cookie: "session=x; language=ar", "Accept-Encoding": "br" });
      expect(arabic.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(arabic.body).toString()).toBe(page("ar"));
      // Any other value is English; a look-alike cookie name is not the language.
      expect((await web.get("/login", { Cookie: "language=fr" })).body.toString()).toBe(page("en"));
      expect((await web.get("/login", { Cookie: "xlanguage=ar" })).body.toString()).toBe(page("en"));

      // Other routes, and a public page the build did not render, get the shell.
      expect((await web.get("/dashboard")).body.toString()).toContain("shell");
      expect((await web.get("/signup", { Cookie: "language=ar" })).body.toString()).toContain("shell");
    } finally {
      await web.close();
    }
  });
});
