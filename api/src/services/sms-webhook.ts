/**
 * Inbound SMS from the gateway: authenticity, field names, duplicates, and the hand-off to the
 * sms-reply queue. Nothing here waits for a reply: the gateway gets its answer at once.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import {
  addressInList,
  smsInboundSchema,
  type SmsInbound,
  type SmsIntegrationConfigValues,
  type SmsReplyJob,
  type SmsWebhookAuth,
} from "@storefront/shared";
import { legacySmsJobId, loadSmsIntegrationConfig, smsJobId, smsJobOptions, smsMessageKey } from "@storefront/shared/server";

/** Signed timestamps further than this from our clock are replays (or broken clocks). */
const SIGNATURE_MAX_SKEW_MS = 5 * 60_000;
/** How long a message (its key: gateway, sender, recipient and the gateway's id) is remembered for duplicate detection. */
const DUPLICATE_WINDOW_SECONDS = 7 * 24 * 3600;
/** A signed request verifies for at most the skew window either side of its timestamp; its replay mark outlives that. */
const REPLAY_WINDOW_SECONDS = (2 * SIGNATURE_MAX_SKEW_MS) / 1000 + 60;

/** How long an API process reuses the settings it read (a saved change applies at once in that process). */
const SETTINGS_CACHE_MS = 1000;
let cachedSettings: { value: WebhookAuthSettings; at: number } | null = null;

/** What the webhook checks a call against: the chosen method, the secrets still valid, the source allowlist. */
export interface WebhookAuthSettings {
  mode: SmsWebhookAuth;
  /** The current secret first; the one before the last rotation while its overlap lasts. */
  secrets: string[];
  username: string;
  allowedIps: string[];
  queryToken: boolean;
}

export function authSettingsOf(config: SmsIntegrationConfigValues, now = Date.now()): WebhookAuthSettings {
  const previousValid =
    config.webhook_secret_previous !== "" &&
    config.webhook_secret_previous_until !== null &&
    config.webhook_secret_previous_until > now;
  return {
    mode: config.webhook_auth,
    secrets: [config.webhook_secret, ...(previousValid ? [config.webhook_secret_previous] : [])].filter(Boolean),
    username: config.webhook_username,
    allowedIps: config.webhook_allowed_ips,
    queryToken: config.webhook_query_token,
  };
}

/** The webhook settings, read at most once a second per process: a burst of calls costs one read, not one each. */
export async function webhookAuthSettings(now = Date.now()): Promise<WebhookAuthSettings> {
  if (cachedSettings && now - cachedSettings.at < SETTINGS_CACHE_MS) return cachedSettings.value;
  const value = authSettingsOf(await loadSmsIntegrationConfig(), now);
  cachedSettings = { value, at: now };
  return value;
}

/** A saved configuration applies to the next webhook call of this process. */
export function forgetWebhookSecret(): void {
  cachedSettings = null;
}

export type Verdict = { ok: true; via: "signature" | "basic" | "header" | "token" } | { ok: false; reason: string };

export interface SignedRequest {
  rawBody: Buffer;
  signature: string | undefined;
  timestamp: string | undefined;
  /** `?token=`, honoured only when the integration enables it. */
  token: string | undefined;
  /** The Authorization header (Basic, or Bearer in header mode). */
  authorization?: string | undefined;
  /** X-Webhook-Token. */
  tokenHeader?: string | undefined;
  /** The caller's address as Express sees it (trust proxy applied). */
  ip?: string | undefined;
}

function equalInConstantTime(a: Buffer, b: Buffer): boolean {
  // timingSafeEqual needs equal lengths; comparing digests keeps the compare length-blind too.
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** Whether the value equals one of the secrets; every secret is compared, so timing tells nothing. */
function matchesAny(value: string, secrets: string[]): boolean {
  let found = false;
  for (const secret of secrets) found = equalInConstantTime(Buffer.from(value), Buffer.from(secret)) || found;
  return found;
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

/** HMAC-SHA256 of `<timestamp>.<raw body>` in X-Signature (hex, optionally "sha256="-prefixed), timestamp within 5 minutes. */
function verifySignature(request: SignedRequest, secrets: string[], now: number): Verdict {
  if (request.signature === undefined) return { ok: false, reason: "no signature" };
  if (request.timestamp === undefined) return { ok: false, reason: "X-Signature-Timestamp is missing" };
  const at = timestampMs(request.timestamp.trim());
  if (at === null) return { ok: false, reason: "X-Signature-Timestamp is not a number" };
  if (Math.abs(now - at) > SIGNATURE_MAX_SKEW_MS) return { ok: false, reason: "signature timestamp outside the 5 minute window" };
  const given = request.signature
    .trim()
    .replace(/^sha256=/iu, "")
    .toLowerCase();
  if (!/^[0-9a-f]{64}$/u.test(given)) return { ok: false, reason: "X-Signature is not a hex SHA-256 HMAC" };
  const expected = secrets.map((secret) => signatureOf(secret, request.timestamp!.trim(), request.rawBody));
  return matchesAny(given, expected) ? { ok: true, via: "signature" } : { ok: false, reason: "signature mismatch" };
}

/** HTTP Basic: the configured user name and the webhook secret as password. */
function verifyBasic(request: SignedRequest, settings: WebhookAuthSettings): Verdict {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/iu.exec(request.authorization ?? "");
  if (!match) return { ok: false, reason: "no Basic credentials" };
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return { ok: false, reason: "malformed Basic credentials" };
  const userOk = equalInConstantTime(Buffer.from(decoded.slice(0, colon)), Buffer.from(settings.username));
  const passwordOk = matchesAny(decoded.slice(colon + 1), settings.secrets);
  return userOk && passwordOk ? { ok: true, via: "basic" } : { ok: false, reason: "Basic credentials mismatch" };
}

/** The secret in X-Webhook-Token, or as `Authorization: Bearer <secret>`. */
function verifyHeader(request: SignedRequest, secrets: string[]): Verdict {
  const bearer = /^Bearer\s+(\S+)\s*$/iu.exec(request.authorization ?? "")?.[1];
  const token = request.tokenHeader ?? bearer;
  if (token === undefined) return { ok: false, reason: "no X-Webhook-Token header" };
  return matchesAny(token.trim(), secrets) ? { ok: true, via: "header" } : { ok: false, reason: "token mismatch" };
}

/**
 * The integration's chosen method decides (HMAC by default, HTTP Basic or a token header); the
 * source allowlist, when set, applies first; `?token=` only when explicitly enabled, since a
 * secret in a URL ends up in proxies' and gateways' logs.
 */
export function verifyWebhook(request: SignedRequest, settings: WebhookAuthSettings, now = Date.now()): Verdict {
  if (settings.secrets.length === 0) return { ok: false, reason: "no webhook secret is configured" };
  if (settings.allowedIps.length > 0 && !addressInList(request.ip ?? "", settings.allowedIps))
    return { ok: false, reason: "source address not in the allowlist" };
  if (request.token !== undefined) {
    if (!settings.queryToken) return { ok: false, reason: "query-string token is not enabled" };
    return matchesAny(request.token, settings.secrets) ? { ok: true, via: "token" } : { ok: false, reason: "token mismatch" };
  }
  if (settings.mode === "basic") return verifyBasic(request, settings);
  if (settings.mode === "header") return verifyHeader(request, settings.secrets);
  if (request.signature === undefined) return { ok: false, reason: "no signature or token" };
  return verifySignature(request, settings.secrets, now);
}

const FIELD_NAMES = {
  from: ["from", "sender", "msisdn", "phone", "source", "source_addr", "From"],
  to: ["to", "shortcode", "recipient", "destination", "destination_addr", "To"],
  text: ["text", "message", "body", "content", "short_message", "Body"],
  messageId: ["message_id", "messageId", "id", "msg_id", "sms_id", "MessageSid"],
  /** Which gateway it came through: a name the operator gives each (`gateway=` in its URL), Kannel's `%i`, Jasmin's connector. */
  gateway: ["gateway", "gateway_id", "smsc", "smsc_id", "origin-connector"],
} as const;

function pick(fields: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = fields[name];
    if (typeof value === "string") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

/** Form fields with their raw bytes: a UCS-2 `content` is percent-encoded bytes, not UTF-8 text. */
export function parseFormBytes(rawBody: Buffer): Map<string, Buffer> {
  const fields = new Map<string, Buffer>();
  const decode = (part: string) => {
    const plus = part.replace(/\+/gu, " ");
    const bytes: number[] = [];
    for (let i = 0; i < plus.length; i++) {
      const hex = plus[i] === "%" ? plus.slice(i + 1, i + 3) : "";
      if (/^[0-9a-f]{2}$/iu.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else bytes.push(...Buffer.from(plus[i]!, "latin1"));
    }
    return Buffer.from(bytes);
  };
  // The raw body is ASCII when form-encoded; latin1 keeps any stray byte as itself.
  for (const pair of rawBody.toString("latin1").split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const name = decode(eq < 0 ? pair : pair.slice(0, eq)).toString("utf8");
    if (!fields.has(name)) fields.set(name, decode(eq < 0 ? "" : pair.slice(eq + 1)));
  }
  return fields;
}

/**
 * SMPP data_coding as gateways send it: the number, the name older Jasmin versions used, or (Jasmin
 * 0.11.1's MO form, captured in tests/integration/sms-jasmin.test.ts) the data_coding byte itself,
 * percent-encoded: `coding=%00`, `coding=%08`.
 */
const CODING_NAMES: Record<string, number> = {
  SMSC_DEFAULT_ALPHABET: 0,
  IA5_ASCII: 1,
  OCTET_UNSPECIFIED: 2,
  LATIN_1: 3,
  OCTET_UNSPECIFIED_COMMON: 4,
  UCS2: 8,
};

export class SmsTextError extends Error {}

/** One character that is not a digit: the data_coding byte as Jasmin puts it in its form (read as latin1). */
function rawCodingByte(value: string): number | undefined {
  return value.length === 1 && !/\d/u.test(value) ? value.charCodeAt(0) : undefined;
}

/**
 * The text of a message from its bytes and SMPP data_coding: 8 is UCS-2 (UTF-16 big-endian),
 * 3 Latin-1, 0 and 1 the default alphabet, which gateways hand over as ASCII (read as UTF-8
 * when it is valid UTF-8, so a gateway that re-encodes to UTF-8 reads right too, else Latin-1).
 * 2 and 4 are binary data, not text.
 */
export function decodeSmsText(bytes: Buffer, coding: string | undefined): string {
  const raw = (coding ?? "0").trim();
  const code = /^\d{1,3}$/u.test(raw) ? Number(raw) : (CODING_NAMES[raw.toUpperCase()] ?? rawCodingByte(coding ?? ""));
  if (code === undefined) throw new SmsTextError(`coding: ${JSON.stringify(raw)} is not an SMPP data coding`);
  if (code === 8) {
    if (bytes.length % 2 !== 0) throw new SmsTextError("content: UCS-2 text must have an even number of bytes");
    const swapped = Buffer.from(bytes);
    swapped.swap16();
    return swapped.toString("utf16le");
  }
  if (code === 2 || code === 4) throw new SmsTextError(`coding: ${code} is binary data, not a text message`);
  if (code === 3) return bytes.toString("latin1");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString("latin1");
  }
}

/** The fields that may carry the message's bytes as hex (Jasmin's `binary`, its MT API's `hex-content`). */
const HEX_FIELDS = ["binary", "hex-content", "hex_content"];

/**
 * The body as fields: a JSON object, or form encoding as Jasmin, Kannel and most gateways post
 * it. In a form, `coding` (SMPP data_coding) says how the message bytes are encoded; the text
 * is then decoded from those bytes (from hex when the gateway sent `binary`).
 */
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
  const form = parseFormBytes(rawBody);
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form) fields[name] = value.toString("utf8");
  const textField = FIELD_NAMES.text.find((name) => form.has(name));
  const hexField = HEX_FIELDS.find((name) => form.has(name));
  const coding = form.get("coding")?.toString("latin1");
  if (textField && (coding !== undefined || hexField)) {
    let bytes = form.get(textField)!;
    if (hexField) {
      const hex = form.get(hexField)!.toString("latin1").trim();
      if (!/^(?:[0-9a-f]{2})*$/iu.test(hex)) throw new SmsTextError(`${hexField}: must be hexadecimal`);
      bytes = Buffer.from(hex, "hex");
    }
    fields[textField] = decodeSmsText(bytes, coding);
  }
  return fields;
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

/**
 * The gateway the message came through, as it names itself (the fields first, then the webhook
 * URL's `?gateway=`); "" when it does not. Part of the message's key: two gateways' counters may
 * give the same id to different messages. For a request authenticated by its HMAC signature the
 * caller passes no query: the signature covers the body (a GET's fields, which hold its
 * `gateway=`), not a POST's URL, and a name taken from an unsigned URL would let a captured signed
 * request be replayed under new keys (`?gateway=a`, `?gateway=b`...), each accepted anew.
 */
export function gatewayOf(fields: Record<string, unknown>, query?: unknown): string {
  const named = pick(fields, FIELD_NAMES.gateway) ?? (typeof query === "string" ? query : "");
  return named.trim().slice(0, 100);
}

export { smsJobId } from "@storefront/shared/server";

export interface Accepted {
  messageId: string;
  duplicate: boolean;
}

/** The duplicate mark of a message as the version before SMS keys set it: by the gateway's id alone. */
const legacySeenKey = (messageId: string) => `sms:webhook:seen:${createHash("sha256").update(messageId).digest("hex")}`;
/**
 * The duplicate mark of a message key: `seen2:`, apart from the legacy `seen:<sha256(id)>`, which a
 * gateway's id spelled as the JSON of another message's identity would otherwise equal.
 */
const seenKeyOf = (key: string) => `sms:webhook:seen2:${key}`;

/**
 * The mark of one signed request (its timestamp and raw body: what the HMAC covers; the
 * signature's own spelling, prefix or case, may vary): the same signed request again within its
 * window is a replay or the gateway's retry, answered as a duplicate whatever else changed.
 */
export function replayKeyOf(request: SignedRequest): string | undefined {
  if (request.signature === undefined || request.timestamp === undefined) return undefined;
  const hash = createHash("sha256").update(`${request.timestamp.trim()}.`).update(request.rawBody).digest("hex");
  return `sms:webhook:signed:${hash}`;
}

/**
 * A retry of a message the version before SMS keys queued (its mark by id is there, within its
 * week): a duplicate while that job, of the same sender and recipient, is still kept (waiting,
 * running, or finished within the day). One finished earlier is recognised by the worker from its
 * records (workers/src/jobs/sms-reply/message-key.ts).
 */
async function queuedBeforeUpgrade(queue: Queue, messageId: string, inbound: SmsInbound): Promise<boolean> {
  const job = await queue.getJob(legacySmsJobId(messageId));
  const data = job?.data as Partial<SmsReplyJob> | undefined;
  return data !== undefined && data.key === undefined && data.from === inbound.from && data.to === inbound.to;
}

/**
 * Queues one inbound message once per key (smsMessageKey: the gateway, sender, recipient and the
 * gateway's id, so another sender's or gateway's message with the same id is its own): Redis SET
 * NX catches retries of the gateway for a week, the BullMQ job id catches races between API
 * processes, and the worker's records under the key catch anything older. `replayKey`
 * (replayKeyOf, for a request authenticated by its signature) marks the signed request itself: a
 * second copy of it is a duplicate even if something unsigned about it differs.
 */
export async function acceptInbound(
  redis: Redis,
  queue: Queue,
  inbound: SmsInbound,
  fallbackId: string,
  gateway = "",
  replayKey?: string,
): Promise<Accepted> {
  const messageId = inbound.messageId || fallbackId;
  const key = smsMessageKey({ source: `webhook:${gateway}`, from: inbound.from, to: inbound.to, messageId });
  const seenKey = seenKeyOf(key);
  // One round trip: the marks, and whether the version before marked the id (its mark had no key).
  const checks = redis.multi();
  if (replayKey !== undefined) checks.set(replayKey, "1", "EX", REPLAY_WINDOW_SECONDS, "NX");
  checks.set(seenKey, "1", "EX", DUPLICATE_WINDOW_SECONDS, "NX").exists(legacySeenKey(messageId));
  const results = (await checks.exec()) ?? [];
  const [replay, set, legacy] = replayKey === undefined ? [undefined, ...results] : results;
  for (const result of replayKey === undefined ? [set] : [replay, set])
    if (!result || result[0]) throw result?.[0] ?? new Error("Redis discarded the duplicate check");
  if (replay && replay[1] !== "OK") {
    // A copy of a signed request already taken: never a message of its own, whatever its key.
    if (set![1] === "OK") await redis.del(seenKey);
    return { messageId, duplicate: true };
  }
  if (set![1] !== "OK") return { messageId, duplicate: true };
  const job: SmsReplyJob = {
    messageId,
    key,
    from: inbound.from,
    to: inbound.to,
    text: inbound.text,
    receivedAt: Date.now(),
    channel: "webhook",
  };
  try {
    if (!legacy || legacy[0]) throw legacy?.[0] ?? new Error("Redis discarded the duplicate check");
    if (legacy[1] === 1 && (await queuedBeforeUpgrade(queue, messageId, inbound))) return { messageId, duplicate: true };
    await queue.add("inbound", job, smsJobOptions(smsJobId(key)));
  } catch (error) {
    // Not queued: forget the message (and the signed request) so the gateway's retry is accepted.
    await redis.del(seenKey, ...(replayKey === undefined ? [] : [replayKey])).catch(() => undefined);
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
