import { describe, expect, it } from "vitest";
import {
  authSettingsOf,
  bodyFields,
  decodeSmsText,
  fallbackMessageId,
  gatewayOf,
  inboundFrom,
  replayKeyOf,
  signatureOf,
  verifyWebhook,
  type SignedRequest,
  type WebhookAuthSettings,
} from "./sms-webhook";

const SECRET = "0123456789abcdef-secret";
const body = Buffer.from(JSON.stringify({ from: "+15550001", to: "5555", text: "hi", message_id: "m1" }));
const now = 1_700_000_000_000;
const ts = String(now / 1000);

function settings(overrides: Partial<WebhookAuthSettings> = {}): WebhookAuthSettings {
  return { mode: "hmac", secrets: [SECRET], username: "", allowedIps: [], queryToken: false, ...overrides };
}
const HMAC = settings();

function signed(overrides: Partial<SignedRequest> = {}): SignedRequest {
  return { rawBody: body, signature: signatureOf(SECRET, ts, body), timestamp: ts, token: undefined, ...overrides };
}

describe("verifyWebhook", () => {
  it("accepts the HMAC of <timestamp>.<raw body>, bare or sha256=-prefixed, in any case", () => {
    expect(verifyWebhook(signed(), HMAC, now)).toEqual({ ok: true, via: "signature" });
    const hex = signatureOf(SECRET, ts, body);
    expect(verifyWebhook(signed({ signature: `sha256=${hex.toUpperCase()}` }), HMAC, now).ok).toBe(true);
  });

  it("accepts a millisecond timestamp within the window", () => {
    const ms = String(now - 60_000);
    expect(verifyWebhook(signed({ timestamp: ms, signature: signatureOf(SECRET, ms, body) }), HMAC, now).ok).toBe(true);
  });

  it("rejects a changed body, another secret, a missing timestamp and garbage", () => {
    expect(verifyWebhook(signed({ rawBody: Buffer.from(`${body.toString()} `) }), HMAC, now)).toEqual({
      ok: false,
      reason: "signature mismatch",
    });
    expect(verifyWebhook(signed(), settings({ secrets: ["another-secret-0123456"] }), now).ok).toBe(false);
    expect(verifyWebhook(signed({ timestamp: undefined }), HMAC, now).ok).toBe(false);
    expect(verifyWebhook(signed({ signature: "zz" }), HMAC, now).ok).toBe(false);
    expect(verifyWebhook(signed({ signature: undefined }), HMAC, now)).toEqual({ ok: false, reason: "no signature or token" });
  });

  it("rejects timestamps more than 5 minutes away, in either direction", () => {
    for (const skew of [-5 * 60_000 - 1000, 5 * 60_000 + 1000]) {
      const at = String(Math.floor((now + skew) / 1000));
      const verdict = verifyWebhook(signed({ timestamp: at, signature: signatureOf(SECRET, at, body) }), HMAC, now);
      expect(verdict).toEqual({ ok: false, reason: "signature timestamp outside the 5 minute window" });
    }
  });

  it("refuses the secret in the query string unless the integration enables it, then only an exact match", () => {
    const unsigned = { rawBody: body, signature: undefined, timestamp: undefined };
    expect(verifyWebhook({ ...unsigned, token: SECRET }, HMAC, now)).toEqual({
      ok: false,
      reason: "query-string token is not enabled",
    });
    const enabled = settings({ queryToken: true });
    expect(verifyWebhook({ ...unsigned, token: SECRET }, enabled, now)).toEqual({ ok: true, via: "token" });
    expect(verifyWebhook({ ...unsigned, token: `${SECRET}x` }, enabled, now).ok).toBe(false);
    expect(verifyWebhook({ ...unsigned, token: SECRET.slice(0, -1) }, enabled, now).ok).toBe(false);
  });

  it("accepts nothing while no secret is configured", () => {
    const none = settings({ secrets: [], queryToken: true });
    expect(verifyWebhook({ rawBody: body, signature: undefined, timestamp: undefined, token: "" }, none, now).ok).toBe(false);
  });

  it("checks HTTP Basic credentials (user name and secret) in basic mode, and nothing else there", () => {
    const basic = settings({ mode: "basic", username: "jasmin" });
    const auth = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
    const unsigned = { rawBody: body, signature: undefined, timestamp: undefined, token: undefined };
    expect(verifyWebhook({ ...unsigned, authorization: auth("jasmin", SECRET) }, basic, now)).toEqual({ ok: true, via: "basic" });
    expect(verifyWebhook({ ...unsigned, authorization: auth("other", SECRET) }, basic, now).ok).toBe(false);
    expect(verifyWebhook({ ...unsigned, authorization: auth("jasmin", "wrong") }, basic, now).ok).toBe(false);
    expect(verifyWebhook(signed(), basic, now).ok).toBe(false);
  });

  it("checks X-Webhook-Token or a Bearer token in header mode", () => {
    const header = settings({ mode: "header" });
    const unsigned = { rawBody: body, signature: undefined, timestamp: undefined, token: undefined };
    expect(verifyWebhook({ ...unsigned, tokenHeader: SECRET }, header, now)).toEqual({ ok: true, via: "header" });
    expect(verifyWebhook({ ...unsigned, authorization: `Bearer ${SECRET}` }, header, now).ok).toBe(true);
    expect(verifyWebhook({ ...unsigned, tokenHeader: "nope" }, header, now).ok).toBe(false);
    expect(verifyWebhook(signed(), header, now).ok).toBe(false);
  });

  it("refuses a caller outside the allowlist even with a valid signature; IPv4-mapped callers match IPv4 ranges", () => {
    const listed = settings({ allowedIps: ["203.0.113.0/24", "2001:db8::/32"] });
    expect(verifyWebhook(signed({ ip: "203.0.113.9" }), listed, now).ok).toBe(true);
    expect(verifyWebhook(signed({ ip: "::ffff:203.0.113.9" }), listed, now).ok).toBe(true);
    expect(verifyWebhook(signed({ ip: "2001:db8::5" }), listed, now).ok).toBe(true);
    expect(verifyWebhook(signed({ ip: "198.51.100.1" }), listed, now)).toEqual({
      ok: false,
      reason: "source address not in the allowlist",
    });
  });

  it("accepts the previous secret only while its overlap lasts", () => {
    const config = {
      webhook_secret: "new-secret-0123456789",
      webhook_secret_previous: SECRET,
      webhook_secret_previous_until: now + 1000,
      webhook_auth: "hmac",
      webhook_username: "",
      webhook_allowed_ips: [],
      webhook_query_token: false,
    } as unknown as Parameters<typeof authSettingsOf>[0];
    expect(verifyWebhook(signed(), authSettingsOf(config, now), now).ok).toBe(true);
    expect(verifyWebhook(signed(), authSettingsOf(config, now + 2000), now).ok).toBe(false);
  });
});

describe("inbound fields", () => {
  it("reads JSON and form bodies under the gateways' common field names", () => {
    const json = inboundFrom(
      bodyFields(Buffer.from('{"sender":"+1 555 000-1","shortcode":"77","body":"hey","id":42}'), "application/json"),
    );
    expect(json.success && json.data).toEqual({ from: "+15550001", to: "77", text: "hey", messageId: "42" });
    const form = inboundFrom(
      bodyFields(Buffer.from("msisdn=15550001&to=77&message=hello+there&message_id=abc"), "application/x-www-form-urlencoded"),
    );
    expect(form.success && form.data).toEqual({ from: "15550001", to: "77", text: "hello there", messageId: "abc" });
  });

  it("reads which gateway a message came through: its own field (Jasmin's connector, Kannel's %i) or ?gateway= in the URL", () => {
    const jasmin = bodyFields(Buffer.from("id=1&from=15550001&to=7777&origin-connector=smsc-2&content=hi"), undefined);
    expect(gatewayOf(jasmin)).toBe("smsc-2");
    expect(gatewayOf({ smsc: "kannel-a", gateway: " gw-1 " }, "ignored")).toBe("gw-1");
    expect(gatewayOf({ id: 1 }, "gw-url")).toBe("gw-url");
    expect(gatewayOf({ gateway_id: 7 })).toBe("7");
    expect(gatewayOf({}, ["two", "values"])).toBe("");
    expect(gatewayOf({ gateway: "x".repeat(500) })).toHaveLength(100);
  });

  it("names the missing field", () => {
    const parsed = inboundFrom({ text: "no sender" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["from"]);
  });

  it("reads Jasmin's form: UCS-2 content as percent-encoded UTF-16BE bytes, or as hex in `binary`", () => {
    const arabic = "مرحبا";
    const ucs2 = Buffer.from(arabic, "utf16le").swap16();
    const percent = [...ucs2].map((b) => `%${b.toString(16).padStart(2, "0").toUpperCase()}`).join("");
    const raw = `id=abc-1&from=%2B15550001&to=7777&origin-connector=smsc1&priority=1&coding=8&content=${percent}`;
    expect(inboundFrom(bodyFields(Buffer.from(raw), "application/x-www-form-urlencoded")).data).toEqual({
      from: "+15550001",
      to: "7777",
      text: arabic,
      messageId: "abc-1",
    });
    const hex = `id=abc-2&from=15550001&to=7777&coding=8&content=garbage&binary=${ucs2.toString("hex")}`;
    expect(bodyFields(Buffer.from(hex), undefined).content).toBe(arabic);
    const gsm = "id=abc-3&from=15550001&to=7777&coding=0&content=Hello+world+%21";
    expect(bodyFields(Buffer.from(gsm), undefined).content).toBe("Hello world !");
  });

  it("reads the bodies a real Jasmin 0.11.1 posted: `coding` is the data_coding byte itself (%00, %08)", () => {
    // Captured in tests/integration/sms-jasmin.test.ts (test-artifacts/sms-gateways/jasmin-captured.txt).
    const english =
      "id=8e7431de-59d2-44b8-a50c-aa6d41b20245&from=966549621408&to=7777&origin-connector=smsc&content=hello+from+jasmin+67f32469" +
      "&binary=68656c6c6f2066726f6d206a61736d696e203637663332343639&priority=0&coding=%00";
    const arabic =
      "id=e7b65a11-fbb1-490f-b175-cbe0f5b8fb5a&from=966524322286&to=9000&origin-connector=smsc" +
      "&content=%061%06%2F%00+%069%06%28%061%00+%06H%06%27%06%2C%06G%06%29%00+%00H%00T%00T%00P%00+%002%007%009" +
      "&binary=0631062f0020063906280631002006480627062c06470629002000480054005400500020003200370039&priority=0&coding=%08";
    expect(inboundFrom(bodyFields(Buffer.from(english), "application/x-www-form-urlencoded")).data).toEqual({
      from: "966549621408",
      to: "7777",
      text: "hello from jasmin 67f32469",
      messageId: "8e7431de-59d2-44b8-a50c-aa6d41b20245",
    });
    expect(inboundFrom(bodyFields(Buffer.from(arabic), "application/x-www-form-urlencoded")).data?.text).toBe(
      "رد عبر واجهة HTTP 279",
    );
    // Without `binary`, from the percent-encoded bytes of `content`.
    const contentOnly = arabic.replace(/&binary=[0-9a-f]+/u, "");
    expect(bodyFields(Buffer.from(contentOnly), undefined).content).toBe("رد عبر واجهة HTTP 279");
    expect(() => bodyFields(Buffer.from("from=1&content=x&coding=%04"), undefined)).toThrow(/binary/u);
  });

  it("decodes each SMPP data coding and refuses binary data and odd UCS-2", () => {
    expect(decodeSmsText(Buffer.from([0x00, 0x48, 0x06, 0x45]), "8")).toBe("Hم");
    expect(decodeSmsText(Buffer.from([0x00, 0x48, 0x06, 0x45]), "UCS2")).toBe("Hم");
    expect(decodeSmsText(Buffer.from([0xe9]), "3")).toBe("é");
    expect(decodeSmsText(Buffer.from("café", "utf8"), "0")).toBe("café");
    expect(decodeSmsText(Buffer.from([0x63, 0xe9]), "0")).toBe("cé");
    expect(() => decodeSmsText(Buffer.from([0x00]), "8")).toThrow(/even number/u);
    expect(() => decodeSmsText(Buffer.from([0x01]), "4")).toThrow(/binary/u);
    expect(() => decodeSmsText(Buffer.from([0x01]), "weird")).toThrow(/coding/u);
  });

  it("throws on a JSON body that is not an object", () => {
    expect(() => bodyFields(Buffer.from("[1,2]"), "application/json")).toThrow();
  });

  it("derives the same id for the same signed request, so a replay is a duplicate", () => {
    expect(fallbackMessageId(signed())).toBe(fallbackMessageId(signed()));
    expect(fallbackMessageId({ rawBody: body, signature: undefined, timestamp: undefined, token: SECRET })).not.toBe(
      fallbackMessageId({ rawBody: body, signature: undefined, timestamp: undefined, token: SECRET }),
    );
  });

  it("marks a signed request by what is signed: the same for any spelling of its signature, apart for another body or time", () => {
    const mark = replayKeyOf(signed());
    expect(mark).toMatch(/^sms:webhook:signed:[0-9a-f]{64}$/u);
    expect(replayKeyOf(signed({ signature: `sha256=${signatureOf(SECRET, ts, body).toUpperCase()}` }))).toBe(mark);
    expect(replayKeyOf(signed({ rawBody: Buffer.concat([body, Buffer.from(" ")]) }))).not.toBe(mark);
    expect(replayKeyOf(signed({ timestamp: String(now / 1000 + 1) }))).not.toBe(mark);
    expect(replayKeyOf({ rawBody: body, signature: undefined, timestamp: undefined, token: SECRET })).toBeUndefined();
  });
});
