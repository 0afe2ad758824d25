import { z } from "zod";
import { languageSchema } from "./common";

/** What a Web Push notice is about (SPEC-level events: a job's end, the low-balance notice). */
export const PUSH_KINDS = ["video.completed", "video.failed", "image.completed", "image.failed", "wallet.low"] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

const base64url = (max: number) =>
  z
    .string()
    .min(16)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/u, "must be base64url");

/**
 * POST /api/push/subscriptions: the browser's PushSubscription (its `toJSON()`), and the language
 * its notifications are written in. One per device; the same endpoint again replaces it.
 */
export const pushSubscribeRequestSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/u, error: "endpoint must be a URL" }).max(2048),
  keys: z.object({
    /** The device's P-256 public key (RFC 8291), 65 bytes base64url. */
    p256dh: base64url(128),
    /** The device's authentication secret (RFC 8291), 16 bytes base64url. */
    auth: base64url(64),
  }),
  language: languageSchema,
});
export type PushSubscribeRequest = z.infer<typeof pushSubscribeRequestSchema>;

/** DELETE /api/push/subscriptions: this device's subscription ends (the browser unsubscribed). */
export const pushUnsubscribeRequestSchema = z.object({ endpoint: z.string().min(1).max(2048) });

/** GET /api/push/key: the server's VAPID public key, which the browser subscribes with. */
export const pushKeyResponseSchema = z.object({ success: z.literal(true), publicKey: z.string() });

/**
 * What a push carries (encrypted, RFC 8291): which job and which screen, and the notice's own words
 * in the subscriber's language; never a message, a prompt or a Doctor answer (the screen fetches them).
 */
export const pushPayloadSchema = z.object({
  kind: z.enum(PUSH_KINDS),
  /** The job (video or image id); absent for the low-balance notice. */
  id: z.string().max(64).optional(),
  title: z.string().max(120),
  body: z.string().max(200),
  lang: languageSchema,
  /** A path of this app, opened when the notification is tapped. */
  url: z
    .string()
    .regex(/^\/(?!\/)/u, "must be a path of this app")
    .max(200),
  /** One notification per job: a later notice replaces an earlier one. */
  tag: z.string().max(80),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
