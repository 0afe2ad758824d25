/**
 * Inbound SMS from the gateway: authenticity, field names, duplicates, and the hand-off to the
 * sms-reply queue. Nothing here waits for a reply: the gateway gets its answer at once.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { smsInboundSchema, type SmsInbound, type SmsReplyJob } from "@storefront/shared";
import { loadSmsIntegrationConfig } from "@storefront/shared/server";

/** Signed timestamps further than this from our clock are replays (or broken clocks). */
export const SIGNATURE_MAX_SKEW_MS = 5 * 60_000;
/** How long a gateway message id is remembered for duplicate detection. */
export const DUPLICATE_WINDOW_SECONDS = 7 * 24 * 3600;

/** How long an API process reuses the webhook secret it read (a saved change applies at once in that process). */
const SECRET_CACHE_MS = 1000;
let cachedSecret: { value: string; at: number } | null = null;

/** The webhook secret, read at most once a second per process: a burst of calls costs one read, not one each. */
export async function webhookSecret(now = Date.now()): Promise<string> {
  if (cachedSecret && now - cachedSecret.at < SECRET_CACHE_MS) return cachedSecret.value;
  const { webhook_secret } = await loadSmsIntegrationConfig();
  cachedSecret = { value: webhook_secret, at: now };
  return webhook_secret;
}

/** A saved configuration applies to the next webhook call of this process. */
export function forgetWebhookSecret(): void {
  cachedSecret = null;
}

export type Verdict = { ok: true; via: "signature" | "token" } | { ok: false; reason: string };

export interface SignedRequest {
  rawBody: Buffer;
  signature: string | undefined;
  timestamp: string | undefined;
  token: string | undefined;
}

function equalInConstantTime(a: Buffer, b: Buffer): boolean {
  // timingSafeEqual needs equal lengths; comparing digests keeps the compare length-blind too.
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** Epoch ms of a signature timestamp given in seconds or milliseconds. */
function timestampMs(value: string): number | null {
  if (!/^\d{1,16}$/u.test(value)) return null;
  const n = Number(value);
  return n > 1e12 ? n : n * 1000;
}

export function signatureOf(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/**
 * HMAC-SHA256 of `<timestamp>.<raw body>` in X-Signature (hex, optionally "sha256="-prefixed)
 * with X-Signature-Timestamp within 5 minutes; or `?token=<secret>` for gateways that cannot sign.
 */
export function verifyWebhook(request: SignedRequest, secret: string, now = Date.now()): Verdict {
  if (!secret) return { ok: false, reason: "no webhook secret is configured" };
  if (request.signature !== undefined) {
    if (request.timestamp === undefined) return { ok: false, reason: "X-Signature-Timestamp is missing" };
    const at = timestampMs(request.timestamp.trim());
    if (at === null) return { ok: false, reason: "X-Signature-Timestamp is not a number" };
    if (Math.abs(now - at) > SIGNATURE_MAX_SKEW_MS)
      return { ok: false, reason: "signature timestamp outside the 5 minute window" };
    const given = request.signature
      .trim()
      .replace(/^sha256=/iu, "")
      .toLowerCase();
    if (!/^[0-9a-f]{64}$/u.test(given)) return { ok: false, reason: "X-Signature is not a hex SHA-256 HMAC" };
    const expected = signatureOf(secret, request.timestamp.trim(), request.rawBody);
    return equalInConstantTime(Buffer.from(given), Buffer.from(expected))
      ? { ok: true, via: "signature" }
      : { ok: false, reason: "signature mismatch" };
  }
  if (request.token !== undefined) {
    return equalInConstantTime(Buffer.from(request.token), Buffer.from(secret))
      ? { ok: true, via: "token" }
      : { ok: false, reason: "token mismatch" };
  }
  return { ok: false, reason: "no signature or token" };
}

const FIELD_NAMES = {
  from: ["from", "sender", "msisdn", "phone", "source", "source_addr", "From"],
  to: ["to", "shortcode", "recipient", "destination", "destination_addr", "To"],
  text: ["text", "message", "body", "content", "short_message", "Body"],
  messageId: ["message_id", "messageId", "id", "msg_id", "sms_id", "MessageSid"],
} as const;

function pick(fields: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = fields[name];
    if (typeof value === "string") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

/** The body as fields: JSON object or form encoding, whichever the gateway sent. */
export function bodyFields(rawBody: Buffer, contentType: string | undefined): Record<string, unknown> {
  const text = rawBody.toString("utf8");
  if (!text.trim()) return {};
  const looksJson = /json/iu.test(contentType ?? "") || /^\s*\{/u.test(text);
  if (looksJson) {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new SyntaxError("body must be a JSON object");
    return parsed as Record<string, unknown>;
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** Unifies the common field names of gateways into one inbound message. */
export function inboundFrom(fields: Record<string, unknown>) {
  return smsInboundSchema.safeParse({
    from: pick(fields, FIELD_NAMES.from),
    to: pick(fields, FIELD_NAMES.to),
    text: pick(fields, FIELD_NAMES.text),
    messageId: pick(fields, FIELD_NAMES.messageId),
  });
}

/** BullMQ ids cannot contain ":"; a hash of the gateway id is stable across deliveries. */
export function smsJobId(messageId: string): string {
  return `sms-${createHash("sha256").update(messageId).digest("hex").slice(0, 40)}`;
}

export interface Accepted {
  messageId: string;
  duplicate: boolean;
}

/**
 * Queues one inbound message once per gateway id: Redis SET NX catches retries of the gateway
 * for a week, the BullMQ job id catches races between API processes, and the worker's unique
 * message key catches anything older.
 */
export async function acceptInbound(redis: Redis, queue: Queue, inbound: SmsInbound, fallbackId: string): Promise<Accepted> {
  const messageId = inbound.messageId || fallbackId;
  const seenKey = `sms:webhook:seen:${createHash("sha256").update(messageId).digest("hex")}`;
  const first = await redis.set(seenKey, "1", "EX", DUPLICATE_WINDOW_SECONDS, "NX");
  if (first !== "OK") return { messageId, duplicate: true };
  const job: SmsReplyJob = {
    messageId,
    from: inbound.from,
    to: inbound.to,
    text: inbound.text,
    receivedAt: Date.now(),
    channel: "webhook",
  };
  try {
    await queue.add("inbound", job, {
      jobId: smsJobId(messageId),
      attempts: 5,
      backoff: { type: "exponential", delay: 1000 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
    });
  } catch (error) {
    // Not queued: forget the id so the gateway's retry is accepted.
    await redis.del(seenKey).catch(() => undefined);
    throw error;
  }
  return { messageId, duplicate: false };
}

/** Id for a message whose gateway gave none: the signed request itself, so a replay is still a duplicate. */
export function fallbackMessageId(request: SignedRequest): string {
  if (request.signature !== undefined && request.timestamp !== undefined) {
    return `sig-${createHash("sha256").update(`${request.timestamp}.`).update(request.rawBody).digest("hex").slice(0, 32)}`;
  }
  return `gen-${randomUUID()}`;
}
