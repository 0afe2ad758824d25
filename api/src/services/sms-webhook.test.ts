import { describe, expect, it } from "vitest";
import { bodyFields, fallbackMessageId, inboundFrom, signatureOf, verifyWebhook, type SignedRequest } from "./sms-webhook";

const SECRET = "0123456789abcdef-secret";
const body = Buffer.from(JSON.stringify({ from: "+15550001", to: "5555", text: "hi", message_id: "m1" }));
const now = 1_700_000_000_000;
const ts = String(now / 1000);

function signed(overrides: Partial<SignedRequest> = {}): SignedRequest {
  return { rawBody: body, signature: signatureOf(SECRET, ts, body), timestamp: ts, token: undefined, ...overrides };
}

describe("verifyWebhook", () => {
  it("accepts the HMAC of <timestamp>.<raw body>, bare or sha256=-prefixed, in any case", () => {
    expect(verifyWebhook(signed(), SECRET, now)).toEqual({ ok: true, via: "signature" });
    const hex = signatureOf(SECRET, ts, body);
    expect(verifyWebhook(signed({ signature: `sha256=${hex.toUpperCase()}` }), SECRET, now).ok).toBe(true);
  });

  it("accepts a millisecond timestamp within the window", () => {
    const ms = String(now - 60_000);
    expect(verifyWebhook(signed({ timestamp: ms, signature: signatureOf(SECRET, ms, body) }), SECRET, now).ok).toBe(true);
  });

  it("rejects a changed body, another secret, a missing timestamp and garbage", () => {
    expect(verifyWebhook(signed({ rawBody: Buffer.from(`${body.toString()} `) }), SECRET, now)).toEqual({
      ok: false,
      reason: "signature mismatch",
    });
    expect(verifyWebhook(signed(), "another-secret-0123456", now).ok).toBe(false);
    expect(verifyWebhook(signed({ timestamp: undefined }), SECRET, now).ok).toBe(false);
    expect(verifyWebhook(signed({ signature: "zz" }), SECRET, now).ok).toBe(false);
    expect(verifyWebhook(signed({ signature: undefined }), SECRET, now)).toEqual({ ok: false, reason: "no signature or token" });
  });

  it("rejects timestamps more than 5 minutes away, in either direction", () => {
    for (const skew of [-5 * 60_000 - 1000, 5 * 60_000 + 1000]) {
      const at = String(Math.floor((now + skew) / 1000));
      const verdict = verifyWebhook(signed({ timestamp: at, signature: signatureOf(SECRET, at, body) }), SECRET, now);
      expect(verdict).toEqual({ ok: false, reason: "signature timestamp outside the 5 minute window" });
    }
  });

  it("accepts the secret as a token only when it matches exactly", () => {
    const unsigned = { rawBody: body, signature: undefined, timestamp: undefined };
    expect(verifyWebhook({ ...unsigned, token: SECRET }, SECRET, now)).toEqual({ ok: true, via: "token" });
    expect(verifyWebhook({ ...unsigned, token: `${SECRET}x` }, SECRET, now).ok).toBe(false);
    expect(verifyWebhook({ ...unsigned, token: SECRET.slice(0, -1) }, SECRET, now).ok).toBe(false);
  });

  it("accepts nothing while no secret is configured", () => {
    expect(verifyWebhook({ rawBody: body, signature: undefined, timestamp: undefined, token: "" }, "", now).ok).toBe(false);
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

  it("names the missing field", () => {
    const parsed = inboundFrom({ text: "no sender" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["from"]);
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
});
