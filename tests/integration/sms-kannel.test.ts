/**
 * The product behind a REAL Kannel 1.4.5 (Debian's bearerbox and smsbox; tests/support/sms-gateways.ts),
 * with an SMPP simulator as the carrier's SMSC behind it. A subscriber's message goes SMSC → bearerbox →
 * smsbox → the webhook (the sms-service's get-url), the AI reply goes product → Kannel's sendsms →
 * SMSC, and the SMSC's receipt comes back through the dlr-url the reply was sent with. What Kannel
 * sends is captured (tests/peers/capture-proxy.ts) and asserted on, never written by hand. Calls
 * Kannel made in a run:
 *
 *   GET /api/sms/webhook?token=<secret>&from=%2B966512345678&to=7777&text=hello+from+kannel&id=1f1148e0-...
 *     (with mo-recode, an Arabic message comes as UTF-8: text=%D9%85%D8%B1...)
 *   GET /api/sms/integration/receipt.php?t=<token>&status=1&answer=id%3Asmsc-2+sub%3A001+...+stat%3ADELIVRD+err%3A000+text%3A
 *
 * User-Agent `Kannel/1.4.5`, no body; sendsms answers `202 0: Accepted for delivery`.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiptTokenHash } from "@storefront/shared/server";
import type { CaptureProxy } from "../peers/capture-proxy";
import { peerReply } from "../peers/openai";
import { Client } from "../support/client";
import { until } from "../support/realtime";
import {
  expectGatewayTest,
  expectLongReplyInParts,
  GatewaySuite,
  receiptOn,
  receivedAt,
  replyTo,
  signUpSubscriber,
  startKannel,
  type ProductStack,
  type RunningKannel,
} from "../support/sms-gateways";
import { TEST_ADMIN } from "../setup/global";

/**
 * Short enough for HTTP Basic through Kannel 1.4.5, which breaks the base64 of `user:password` into
 * lines of 76 characters: a `user:password` over 57 bytes gets a line break inside its Authorization
 * header, which an HTTP server refuses (400) (docs/operations.md).
 */
const SECRET = `kw-${randomBytes(16).toString("hex")}`;
const SENDSMS = { username: "product", password: `sendsms-${randomUUID().slice(0, 8)}` };
const SHORTCODE = "7777";
const BASIC_USER = "kannel";
const suite = new GatewaySuite("kannel");
const { smsc, timings } = suite;
let kannel: RunningKannel;
let product: ProductStack;
let tap: CaptureProxy;
let admin: Client;

const messages = () => product.db.collection("smsmessages");

/** Kannel's call for a subscriber's message, as the tap recorded it. */
const moCall = (digits: string, to = SHORTCODE) =>
  tap.captured.find(
    (c) => c.url.startsWith("/api/sms/webhook?") && c.url.includes(`from=%2B${digits}`) && c.url.includes(`to=${to}`),
  );

beforeAll(async () => {
  const t0 = Date.now();
  await suite.startPeers();
  tap = suite.tap;
  const moUrl = (token: string) => `${tap.url}/api/sms/webhook?token=${token}&from=%p&to=%P&text=%a&id=%I`;
  [kannel, product] = await Promise.all([
    startKannel({
      smsc: { port: smsc.port, systemId: "kannel", password: "smscpw" },
      getUrl: moUrl(SECRET),
      services: [
        // Messages starting with this word go to a webhook URL with a wrong token.
        { keyword: "wrongsecret", getUrl: moUrl(`not-the-secret-${randomUUID()}`) },
        // These go with HTTP Basic credentials in the URL (user:secret@) and no token.
        {
          keyword: "basicauth",
          getUrl: `${tap.url.replace("http://", `http://${BASIC_USER}:${SECRET}@`)}/api/sms/webhook?from=%p&to=%P&text=%a&id=%I`,
        },
      ],
      sendsms: SENDSMS,
    }).then((k) => ((timings.kannel = (Date.now() - t0) / 1000), k)),
    suite.startProduct(),
  ]);
  admin = new Client(product.url);
  expect((await admin.post("/admin/login.php", TEST_ADMIN)).status).toBe(200);
  const config = await admin.post(
    "/sms/integration/config.php",
    suite.integration(SECRET, {
      gateway_url: kannel.sendsmsUrl,
      gateway_username: SENDSMS.username,
      gateway_password: SENDSMS.password,
      gateway_format: "kannel",
      sender_id: SHORTCODE,
      // HTTP Basic for calls without ?token= (Kannel sends the user:secret@ of its URL).
      webhook_auth: "basic",
      webhook_username: BASIC_USER,
    }),
  );
  expect(config.status).toBe(200);
  await smsc.receiverBound(30_000);
  timings.ready = (Date.now() - t0) / 1000;
}, 240_000);

afterAll(async () => {
  await suite.finish(
    (c) => `${c.method} ${c.url}\n${JSON.stringify(c.headers)}\n${c.body.toString("latin1")}\n=> ${c.status} ${c.answer}\n`,
    [product, kannel],
    // Which of Kannel's log lines (log-level 1, INFO) carry the webhook secret or a receipt token.
    kannel
      ? {
          "kannel-log-secrets.txt": kannel
            .logs()
            .split("\n")
            .filter((line) => line.includes(SECRET) || /receipt\.php\?t=/u.test(line))
            .join("\n"),
        }
      : {},
  );
});

describe("a real Kannel 1.4.5 in front of the product", () => {
  it("passes a subscriber's message to the webhook (get-url) and sends the AI reply through sendsms", async () => {
    const user = await signUpSubscriber(product, admin);
    const text = `hello from kannel ${randomUUID().slice(0, 8)}`;
    expect(await smsc.deliverMo({ from: user.digits, to: SHORTCODE, text })).toBe(0);
    const { inbound, out } = await replyTo(product, user.e164, text);
    expect(out).toMatchObject({ state: "sent", channel: "http", kind: "ai", message: peerReply(text) });
    expect(out.gateway_response).toMatch(/^0: Accepted for delivery/u);
    expect(await receivedAt(smsc, user.digits, 1)).toEqual([peerReply(text)]);
    expect(smsc.submits.find((s) => s.to === user.digits)).toMatchObject({ from: SHORTCODE, dataCoding: 0 });

    const call = moCall(user.digits)!;
    expect(call).toMatchObject({ method: "GET", status: 202 });
    expect(call.headers["user-agent"]).toMatch(/^Kannel\//u);
    expect(new URL(call.url, "http://x").searchParams.get("id")).toBe(inbound.gateway_message_id);
  });

  it("carries Arabic both ways: UTF-8 in (mo-recode), UCS-2 out in concatenated parts", async () => {
    const user = await signUpSubscriber(product, admin);
    const text = `مرحبا، كيف حالك اليوم؟ ${Math.floor(Math.random() * 1000)}`;
    await smsc.deliverMo({ from: user.digits, to: SHORTCODE, text });
    const { out } = await replyTo(product, user.e164, text);
    expect(out).toMatchObject({ state: "sent", encoding: "UCS-2", message: peerReply(text) });
    expect(await receivedAt(smsc, user.digits, 1)).toEqual([peerReply(text)]);
    const parts = smsc.submits.filter((s) => s.to === user.digits);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => p.dataCoding === 8 && p.part !== undefined)).toBe(true);
  });

  it("sends a long reply in parts that join to the whole", () => expectLongReplyInParts(product, admin, smsc, SHORTCODE));

  it("records the SMSC's receipt that Kannel passes to the reply's dlr-url", async () => {
    const user = await signUpSubscriber(product, admin);
    const text = `receipt please ${randomUUID().slice(0, 8)}`;
    await smsc.deliverMo({ from: user.digits, to: SHORTCODE, text });
    const { out } = await replyTo(product, user.e164, text);
    const stored = await receiptOn(product, out._id);
    expect(stored).toMatchObject({ delivery_status: "DELIVRD" });
    // Kannel's call for this reply (its token is one of the reply's): the proxy records a call once
    // the product has answered it, which can be just after the receipt is stored.
    const ownToken = (url: string) =>
      stored.receipt_token_hashes.includes(receiptTokenHash(new URL(url, product.url).searchParams.get("t") ?? ""));
    const own = await until(
      () =>
        tap.captured.find(
          (c) => c.url.startsWith("/api/sms/integration/receipt.php?t=") && c.url.includes("&status=1&") && ownToken(c.url),
        ),
      30_000,
      "Kannel's receipt call for this reply, as captured",
      50,
    );
    expect(own).toMatchObject({ method: "GET", status: 200, answer: "OK" });
    expect(own.url).toMatch(/&answer=id%3A/u);
    // A guessed token finds nothing and changes nothing.
    const guessed = await fetch(`${product.url}/api/sms/integration/receipt.php?t=${"A".repeat(32)}&status=2`);
    expect(guessed.status).toBe(404);
    // Kannel's own receipt URL for this reply, replayed past the token's lifetime (72 hours): refused, nothing changes.
    await messages().updateOne({ _id: out._id }, { $set: { receipt_tokens_until: new Date(Date.now() - 1000) } });
    const replayed = await fetch(`${product.url}${own.url.replace("status=1", "status=2")}`);
    expect(replayed.status).toBe(410);
    expect(await replayed.json()).toMatchObject({ code: "receipt_expired", field: "t" });
    expect(await messages().findOne({ _id: out._id })).toMatchObject({ delivery_status: "DELIVRD" });
  });

  it("accepts a message Kannel delivers again once", async () => {
    const user = await signUpSubscriber(product, admin);
    const text = `only once ${randomUUID().slice(0, 8)}`;
    await smsc.deliverMo({ from: user.digits, to: SHORTCODE, text });
    await replyTo(product, user.e164, text);
    await receivedAt(smsc, user.digits, 1);
    // The very request Kannel made, again (its http-request-retry after a lost answer).
    const again = await fetch(`${product.url}${moCall(user.digits)!.url}`);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ duplicate: true });
    expect(await messages().countDocuments({ direction: "inbound", phone: user.e164 })).toBe(1);
    expect(await messages().countDocuments({ direction: "outbound", phone: user.e164 })).toBe(1);
    expect(smsc.messagesTo(user.digits)).toHaveLength(1);
  });

  it("refuses Kannel's call with a wrong secret and stores nothing", async () => {
    const user = await signUpSubscriber(product, admin);
    const text = `wrongsecret hello ${randomUUID().slice(0, 8)}`;
    await smsc.deliverMo({ from: user.digits, to: SHORTCODE, text });
    const refused = await until(() => moCall(user.digits), 30_000, "Kannel's call with the wrong token", 50);
    expect(refused.status).toBe(401);
    expect(await messages().countDocuments({ phone: user.e164 })).toBe(0);
    expect(await product.db.collection("smslogs").countDocuments({ phone: user.e164 })).toBe(0);
  });

  it("authenticates with HTTP Basic from the user:secret@ of its get-url, no secret in the query string", async () => {
    const user = await signUpSubscriber(product, admin);
    const text = `basicauth hello ${randomUUID().slice(0, 8)}`;
    expect(await smsc.deliverMo({ from: user.digits, to: SHORTCODE, text })).toBe(0);
    const { out } = await replyTo(product, user.e164, text);
    expect(out).toMatchObject({ state: "sent", message: peerReply(text) });
    const call = moCall(user.digits)!;
    expect(call.url).not.toContain("token=");
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from(`${BASIC_USER}:${SECRET}`).toString("base64")}`);
    expect(call.status).toBe(202);
  });

  it("tests the gateway in its own interface without sending anything: right and wrong credentials", async () => {
    await expectGatewayTest(admin, smsc, {
      gateway_url: kannel.sendsmsUrl,
      gateway_format: "kannel",
      gateway_username: SENDSMS.username,
    });
  });

  it("keeps the webhook secret out of its log files at log-level 1, but prints it on its console (docs/operations.md)", () => {
    const files = kannel.logFiles();
    const logged = (name: string) => (files[name] ?? "").split("\n").filter((line) => line.includes(SECRET));
    expect([...logged("bearerbox.log"), ...logged("smsbox.log")]).toEqual([]);
    // The console (stderr, debug unless started with -v) prints every URL it calls, secrets included.
    expect(logged("smsbox.out").some((line) => /DEBUG: +(Query: token=|Password: )/u.test(line))).toBe(true);
  });
});
