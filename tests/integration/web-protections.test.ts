/**
 * Web client protections (docs/security.md): cross-site requests, security headers, limits on
 * unauthenticated work, bad input, sessions and their sockets. Limits are proved on two API
 * processes of our own (same Redis and database as the run's stack) that trust one proxy and
 * have small limits, so each test counts under its own client address.
 */
import { createHmac } from "node:crypto";
import { request as httpRequest } from "node:http";
import mongoose from "mongoose";
import { Redis } from "ioredis";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SmsLog } from "@storefront/shared/server";
import { indexStoredSessions } from "../../api/src/middleware/session";
import { startStack, type Stack } from "../../scripts/lib/stack";
import { Client, giveCoins, newUser, uniquePhone, walletCoins } from "../support/client";
import { connectSocket, until } from "../support/realtime";

const baseUrl = inject("baseUrl");
const ownOrigin = new URL(baseUrl).origin;
const METRICS_TOKEN = "web-protections-metrics-token-0123";
const LIMITS = { signups: 3, webhookFailures: 4, passwordChanges: 3 };

let limited: Stack;
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(inject("redisUrl"));
  await mongoose.connect(inject("mongoUri"));
  limited = await startStack({
    mongoUri: inject("mongoUri"),
    redisUrl: inject("redisUrl"),
    dataDir: inject("dataDir"),
    persist: false,
    apiProcesses: 2,
    workers: [],
    logDir: "test-artifacts/logs/web-protections",
    env: {
      NODE_ENV: "test",
      // The run's secret: a cookie from one process is good on the others.
      SESSION_SECRET: "test-session-secret-0123456789",
      LOG_LEVEL: "warn",
      TRUST_PROXY: "1",
      METRICS_TOKEN,
      SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR: String(LIMITS.signups),
      WEBHOOK_FAILURE_LIMIT_PER_MINUTE: String(LIMITS.webhookFailures),
      PASSWORD_CHANGE_RATE_LIMIT_PER_HOUR: String(LIMITS.passwordChanges),
      LOGIN_RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
    },
  });
}, 120_000);

afterAll(async () => {
  await limited?.stop();
  await mongoose.disconnect();
  await redis?.quit();
});

let addressCounter = 0;
/** A client address no other test uses, sent through the trusted proxy header. */
function clientAddress(): Record<string, string> {
  addressCounter += 1;
  return { "x-forwarded-for": `10.${process.pid % 250}.${Math.floor(addressCounter / 250)}.${addressCounter % 250}` };
}

/** A raw HTTP request: fetch would normalise `%2e%2e` path segments away before sending. */
function rawGet(path: string, headers: Record<string, string>): Promise<number> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: "GET", headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("cross-site requests", () => {
  it("refuses a form-encoded POST with the session cookie (415) and spends nothing", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    const form = "feature=text&tokens=10&details=x";
    const res = await client.request("POST", "/wallet/use.php", form, { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ success: false, code: "unsupported_media_type", field: "body" });
    const plain = await client.request("POST", "/wallet/use.php", form, { "content-type": "text/plain" });
    expect(plain.status).toBe(415);
    expect(await walletCoins(client)).toBe(100);
  });

  it("refuses a JSON POST from a foreign Origin or Referer with 403, and takes the app's own", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    const use = { feature: "text", tokens: 10, details: "csrf test" };
    const foreign: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { referer: "https://evil.example/page" },
      { origin: `${ownOrigin}.evil.example` },
    ];
    for (const headers of foreign) {
      const res = await client.post("/wallet/use.php", use, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error).toBe("Cross-site request refused");
    }
    const profile = await client.post("/user/update-profile.php", { displayName: "Mallory" }, { origin: "https://evil.example" });
    expect(profile.status).toBe(403);
    expect(await walletCoins(client)).toBe(100);

    const own = await client.post("/wallet/use.php", use, { origin: ownOrigin, referer: `${ownOrigin}/dashboard` });
    expect(own.status).toBe(200);
    expect(await walletCoins(client)).toBe(90);
  });

  it("refuses multipart on a call that takes no file (415)", async () => {
    const { client } = await newUser();
    const form = new FormData();
    form.set("feature", "text");
    form.set("tokens", "1");
    const res = await client.post("/wallet/use.php", form);
    expect(res.status).toBe(415);
  });

  it("refuses a Socket.IO handshake from a foreign origin and accepts the app's own", async () => {
    const { client } = await newUser();
    const { io } = await import("socket.io-client");
    const attempt = (origin: string) =>
      new Promise<string>((resolve) => {
        const socket = io(baseUrl, {
          path: "/socket.io",
          transports: ["websocket"],
          extraHeaders: { cookie: client.cookieHeader(), origin },
          reconnection: false,
        });
        socket.once("connect", () => {
          socket.close();
          resolve("connected");
        });
        socket.once("connect_error", () => {
          socket.close();
          resolve("refused");
        });
      });
    expect(await attempt("https://evil.example")).toBe("refused");
    expect(await attempt(ownOrigin)).toBe("connected");
  });
});

describe("security headers", () => {
  it("sends CSP without inline script, nosniff, frame denial and a referrer policy on API, docs and app answers", async () => {
    for (const path of ["/api/health", "/api/docs", "/api/docs/init.js", "/api/no-such-route"]) {
      const res = await fetch(`${baseUrl}${path}`);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toContain("unsafe-inline");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("referrer-policy"), path).toBe("same-origin");
    }
  });
});

describe("caching of API answers", () => {
  it("marks API answers no-store and sends no ETag: they carry account data", async () => {
    const user = await newUser();
    const answers = {
      health: await fetch(`${baseUrl}/api/health`),
      "unknown route": await fetch(`${baseUrl}/api/no-such-route`),
      wallet: await user.client.get("/wallet/get.php"),
      profile: await user.client.get("/user/profile.php"),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers.get("cache-control"), name).toBe("no-store");
      expect(res.headers.get("etag"), name).toBeNull();
    }
  });
});

describe("limits on unauthenticated work", () => {
  it("limits signups per client address across API processes (429), other addresses unaffected", async () => {
    const address = clientAddress();
    const [a, b] = limited.apiUrls as [string, string];
    const signup = (url: string, headers = address) =>
      new Client(url).post("/signup.php", { phone: uniquePhone(), password: "secret-pass" }, headers);
    const statuses = [];
    for (let i = 0; i < LIMITS.signups; i++) statuses.push((await signup(i % 2 ? b : a)).status);
    expect(statuses).toEqual(Array(LIMITS.signups).fill(201));
    for (const url of [a, b]) {
      const refused = await signup(url);
      expect(refused.status).toBe(429);
      // When to come back, in the Retry-After header and in the text (the user's language).
      expect(refused.body.code).toBe("too_many_signups");
      expect(refused.body.error).toMatch(/^Too many sign-ups from this address\. Please try again in (60|59) minutes\.$/u);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
    }
    const arabic = await signup(a, { ...address, "accept-language": "ar,en;q=0.5" });
    expect(arabic.status).toBe(429);
    expect(arabic.body.error).toMatch(/^محاولات تسجيل كثيرة جدًا من هذا العنوان\. يرجى المحاولة مرة أخرى خلال (60|59) دقيقة\.$/u);
    expect((await signup(a, clientAddress())).status).toBe(201);
  });

  it("collapses failed webhook calls into one counted row per address and window, then answers 429", async () => {
    const address = clientAddress();
    const ip = address["x-forwarded-for"]!;
    const a = limited.apiUrls[0]!;
    const post = () =>
      fetch(`${a}/api/sms/integration/webhook.php`, {
        method: "POST",
        headers: { "content-type": "application/json", ...address },
        body: JSON.stringify({ from: "+15550001111", message: "unsigned" }),
      });
    for (let i = 0; i < LIMITS.webhookFailures; i++) expect((await post()).status).toBe(401);
    const refused = await post();
    expect(refused.status).toBe(429);

    const rows = await SmsLog.find({
      action: "webhook_error",
      key: new RegExp(`^error:${ip.replace(/\./gu, "\\.")}:`, "u"),
    }).lean();
    // A window can end between two calls: the failures are then split over two rows.
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(2);
    const counted = rows.reduce((sum, row) => sum + (JSON.parse(row.details) as { count: number }).count, 0);
    expect(counted).toBe(LIMITS.webhookFailures);

    const metrics = await (await fetch(`${a}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/storefront_webhook_requests_total\{[^}]*outcome="bad_signature"[^}]*\} [1-9]/u);
    expect(metrics).toMatch(/storefront_webhook_requests_total\{[^}]*outcome="throttled"[^}]*\} [1-9]/u);
  });
});

describe("bad input answers 4xx", () => {
  it("answers 400 to malformed multipart on images/edit.php and user/update-profile.php", async () => {
    const { client } = await newUser();
    const cut =
      '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG';
    for (const path of ["/images/edit.php", "/user/update-profile.php"]) {
      for (const [type, body] of [
        ["multipart/form-data; boundary=xyz", cut],
        ["multipart/form-data", "no boundary at all"],
        ["multipart/form-data; boundary=xyz", "--xyz\r\ngarbage without headers end"],
      ] as const) {
        const res = await client.request("POST", path, body, { "content-type": type });
        expect(res.status, `${path} ${type} ${body.slice(0, 20)}`).toBe(400);
      }
    }
  });

  it("answers 404 to a media path with a dot-dot segment", async () => {
    const { client, id } = await newUser();
    for (const path of [
      `/api/media/images/${id}/%2e%2e`,
      `/api/media/images/${id}/..%2fx.png`,
      `/api/user/avatar.php?key=avatars%2F${id}%2F..`,
    ]) {
      expect(await rawGet(path, { cookie: client.cookieHeader() }), path).toBe(404);
    }
  });

  it("answers 400 naming the header to an Idempotency-Key that fails its format, charging nothing", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    for (const key of ["short", "has spaces in it", "x".repeat(129), "bad/slash/key"]) {
      const res = await client.post("/wallet/use.php", { feature: "text", tokens: 5, details: "k" }, { "idempotency-key": key });
      expect(res.status, key).toBe(400);
      expect(res.body).toMatchObject({ field: "Idempotency-Key" });
      expect(res.body.error).toContain("Idempotency-Key");
    }
    const chat = await client.post(
      "/textai/chat.php",
      { message: "hi", conversationHistory: [], language: "en" },
      { "idempotency-key": "no" },
    );
    expect(chat.status).toBe(400);
    expect(await walletCoins(client)).toBe(100);
    const good = { "idempotency-key": "retry-key-0001" };
    expect((await client.post("/wallet/use.php", { feature: "text", tokens: 5, details: "k" }, good)).status).toBe(200);
    expect((await client.post("/wallet/use.php", { feature: "text", tokens: 5, details: "k" }, good)).status).toBe(200);
    expect(await walletCoins(client)).toBe(95);
  });

  it("refuses an avatar over the pixel cap and strips control and bidi-override characters from display names", async () => {
    const { client } = await newUser();
    const wide = await sharp({ create: { width: 4097, height: 2, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("avatar", new Blob([new Uint8Array(wide)], { type: "image/png" }), "wide.png");
    const refused = await client.post("/user/update-profile.php", form);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: "avatar" });
    expect(refused.body.error).toContain("4096");

    const named = new FormData();
    named.set("displayName", "  \u202Eevil\u0000 name\u2066\u0007\u200E\u200F\u061C\u2028\u200B\u180E\u{E0041} ");
    const saved = await client.post("/user/update-profile.php", named);
    expect(saved.status).toBe(200);
    expect(saved.body.displayName).toBe("evil name");
    expect((await client.get("/user/profile.php")).body.displayName).toBe("evil name");
  });
});

/** The session id inside a signed `sf.sid` cookie value (`s:<sid>.<signature>`). */
function sessionIdOf(client: Client): string {
  const value = decodeURIComponent(client.cookie("sf.sid") ?? "");
  return value.slice(2, value.lastIndexOf("."));
}

describe("sessions", () => {
  it("reads a corrupt stored session as no session, and the process keeps serving", async () => {
    for (const garbage of ["{not json", "[1,2]", '{"userId":"x"}', "null"]) {
      const { client } = await newUser();
      await redis.set(`sess:${sessionIdOf(client)}`, garbage, "EX", 60);
      client.timeoutMs = 10_000;
      expect((await client.get("/session-check-simple.php")).body, garbage).toMatchObject({ authenticated: false });
      expect((await client.get("/wallet/get.php")).status, garbage).toBe(401);
    }
    expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
  });

  it("closes a session's sockets on every API process at logout, and only that session's", async () => {
    const [a, b] = limited.apiUrls as [string, string];
    const phone = uniquePhone();
    const first = new Client(a);
    expect((await first.post("/signup.php", { phone, password: "secret-pass" }, clientAddress())).status).toBe(201);
    expect((await first.post("/login-session-fix.php", { phone, password: "secret-pass" })).status).toBe(200);
    const second = new Client(b);
    expect((await second.post("/login-session-fix.php", { phone, password: "secret-pass" })).status).toBe(200);
    const userId: string = (await first.get("/session-check-simple.php")).body.user.id;

    const onB = await connectSocket(b, first);
    const otherSession = await connectSocket(a, second);
    const closed = new Promise<string>((resolve) => onB.socket.once("disconnect", resolve));
    expect((await first.post("/logout.php")).status).toBe(200);
    expect(await closed).toBe("io server disconnect");

    // The other session still gets its pushes.
    await giveCoins(userId, 7);
    await until(() => otherSession.received.some((p) => p.event === "wallet:updated" && p.payload.coins === 7), 10_000, "push");
    expect(otherSession.socket.connected).toBe(true);
    otherSession.socket.close();
  });
});

describe("password change", () => {
  it("changes the password, keeps this session (new id) and its socket, ends the others and theirs", async () => {
    const { client, id, phone } = await newUser("old-password");
    const other = new Client();
    expect((await other.post("/login-session-fix.php", { phone, password: "old-password" })).status).toBe(200);
    const mine = await connectSocket(baseUrl, client);
    const theirs = await connectSocket(baseUrl, other);
    const theirsClosed = new Promise<string>((resolve) => theirs.socket.once("disconnect", resolve));
    const before = client.cookie("sf.sid");

    const res = await client.post("/user/change-password.php", { currentPassword: "old-password", newPassword: "new-password" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(client.cookie("sf.sid")).not.toBe(before);
    expect(await theirsClosed).toBe("io server disconnect");

    expect((await client.get("/session-check-simple.php")).body).toMatchObject({ authenticated: true, user: { id } });
    expect((await other.get("/session-check-simple.php")).body).toMatchObject({ authenticated: false });
    await giveCoins(id, 11);
    await until(() => mine.received.some((p) => p.event === "wallet:updated" && p.payload.coins === 11), 10_000, "push");
    mine.socket.close();

    expect((await new Client().post("/login-session-fix.php", { phone, password: "old-password" })).status).toBe(401);
    expect((await new Client().post("/login-session-fix.php", { phone, password: "new-password" })).status).toBe(200);

    // Logging out after the change still closes the socket that followed the session to its new id.
    const again = await connectSocket(baseUrl, client);
    const againClosed = new Promise<string>((resolve) => again.socket.once("disconnect", resolve));
    expect((await client.post("/logout.php")).status).toBe(200);
    expect(await againClosed).toBe("io server disconnect");
  });

  it("ends sessions stored before the per-user index existed: indexed once at start, and on their next use", async () => {
    const { client, id } = await newUser("old-password");
    const sid = decodeURIComponent(client.cookie("sf.sid")!).slice(2).split(".")[0]!;
    const stored = (await redis.get(`sess:${sid}`))!;
    // Two copies of the session with no entry in user-sessions:<id> (sessions stored before that index existed).
    const legacy = (name: string) => {
      const legacySid = `legacy-${name}-${id}`;
      const signature = createHmac("sha256", "test-session-secret-0123456789")
        .update(legacySid)
        .digest("base64")
        .replace(/=+$/u, "");
      const c = new Client();
      c.setCookieValue("sf.sid", encodeURIComponent(`s:${legacySid}.${signature}`));
      return { sid: legacySid, client: c };
    };
    const unused = legacy("unused");
    const used = legacy("used");
    for (const l of [unused, used]) await redis.set(`sess:${l.sid}`, stored, "EX", 3600);
    expect(await redis.sismember(`user-sessions:${id}`, unused.sid)).toBe(0);

    // The start-up pass (once per data set, so its mark is cleared first) indexes the unused one;
    // a request on the other indexes it as the store touches it.
    await redis.del("migrations:session-index");
    expect(await indexStoredSessions(redis)).toBeGreaterThanOrEqual(2);
    await redis.srem(`user-sessions:${id}`, used.sid);
    expect((await used.client.get("/session-check-simple.php")).body).toMatchObject({ authenticated: true });
    expect(await redis.sismember(`user-sessions:${id}`, used.sid)).toBe(1);

    expect(
      (await client.post("/user/change-password.php", { currentPassword: "old-password", newPassword: "new-password" })).status,
    ).toBe(200);
    expect((await unused.client.get("/session-check-simple.php")).body).toMatchObject({ authenticated: false });
    expect((await used.client.get("/session-check-simple.php")).body).toMatchObject({ authenticated: false });
  });

  it("answers 400 naming the field to a wrong current password or a short new one", async () => {
    const { client } = await newUser("old-password");
    const wrong = await client.post("/user/change-password.php", { currentPassword: "not-it", newPassword: "new-password" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ field: "currentPassword", error: "currentPassword: the current password is incorrect" });
    const short = await client.post("/user/change-password.php", { currentPassword: "old-password", newPassword: "12345" });
    expect(short.status).toBe(400);
    expect(short.body.field).toBe("newPassword");
    expect((await new Client().post("/user/change-password.php", { currentPassword: "a", newPassword: "bbbbbbbb" })).status).toBe(
      401,
    );
  });

  it("limits password change attempts per user (429)", async () => {
    const a = limited.apiUrls[0]!;
    const client = new Client(a);
    const phone = uniquePhone();
    expect((await client.post("/signup.php", { phone, password: "old-password" }, clientAddress())).status).toBe(201);
    expect((await client.post("/login-session-fix.php", { phone, password: "old-password" })).status).toBe(200);
    for (let i = 0; i < LIMITS.passwordChanges; i++) {
      expect(
        (await client.post("/user/change-password.php", { currentPassword: "wrong", newPassword: "new-password" })).status,
      ).toBe(400);
    }
    const refused = await client.post("/user/change-password.php", {
      currentPassword: "old-password",
      newPassword: "new-password",
    });
    expect(refused.status).toBe(429);
  });
});
