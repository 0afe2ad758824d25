/**
 * Web Push (RFC 8030, payloads encrypted per RFC 8291, the sender identified by VAPID, RFC 8292)
 * through the `web-push` library: when a video or image job ends and when the low-balance notice
 * fires, every device the user subscribed gets a notification in the language it subscribed in.
 * The payload names the job and the screen (shared/src/schemas/push.ts), never a prompt, a message
 * or a Doctor answer: the screen fetches those with the session.
 *
 * It rides on the Socket.IO pushes (Pusher.toUser calls `forward`), so every place that tells an
 * open tab tells a closed one too, from whichever process (API or worker) the event happens in.
 * Best effort like the socket: a failed send is logged, never retried into a job's outcome.
 */
import webpush, { WebPushError } from "web-push";
import type { ServerEvents } from "../events";
import type { Language } from "../constants";
import ar from "../i18n/ar.json";
import en from "../i18n/en.json";
import type { PushKind, PushPayload, PushSubscribeRequest } from "../schemas/push";
import type { Config } from "./config";
import type { Logger } from "./logger";
import { PushSubscriptionModel } from "./models/push-subscription";

type NoticeText = { title: string; body: string };
type PushTexts = Record<"videoCompleted" | "videoFailed" | "imageCompleted" | "imageFailed" | "lowBalance", NoticeText>;
const TEXTS: Record<Language, PushTexts> = { en: en.push, ar: ar.push };

/** What a socket event means for a device whose tab may be closed; undefined for events it does not tell. */
export interface Notice {
  kind: PushKind;
  id?: string;
  text: keyof PushTexts;
  url: string;
}

export function noticeOf<E extends keyof ServerEvents>(event: E, payload: ServerEvents[E]): Notice | undefined {
  if (event === "video:status") {
    const { videoId, status } = payload as ServerEvents["video:status"];
    if (status === "completed") return { kind: "video.completed", id: videoId, text: "videoCompleted", url: "/video-test" };
    if (status === "failed") return { kind: "video.failed", id: videoId, text: "videoFailed", url: "/video-test" };
    return undefined;
  }
  if (event === "job:completed" || event === "job:failed") {
    const { jobId, queue } = payload as ServerEvents["job:completed"];
    if (queue !== "image") return undefined;
    return event === "job:completed"
      ? { kind: "image.completed", id: jobId, text: "imageCompleted", url: "/image-ai" }
      : { kind: "image.failed", id: jobId, text: "imageFailed", url: "/image-ai" };
  }
  if (event === "wallet:low") return { kind: "wallet.low", text: "lowBalance", url: "/get-coins" };
  return undefined;
}

/** The payload a device gets: the notice's words in its language, which job, which screen. */
export function payloadOf(notice: Notice, language: Language): PushPayload {
  const { title, body } = TEXTS[language][notice.text];
  return {
    kind: notice.kind,
    ...(notice.id ? { id: notice.id } : {}),
    title,
    body,
    lang: language,
    url: notice.url,
    tag: notice.id ? `${notice.kind.split(".")[0]}-${notice.id}` : notice.kind,
  };
}

/**
 * True when `endpoint` is at one of the allowed push services (PUSH_SERVICES): same scheme, the
 * host equal (or under a `*.` pattern) and the port equal when the entry names one.
 */
export function isAllowedPushEndpoint(endpoint: string, services: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return services
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .some((entry) => {
      const match = /^(https?):\/\/(\*\.)?([^/:]+)(?::(\d+))?\/?$/u.exec(entry);
      if (!match) return false;
      const [, scheme, wildcard, host, port] = match;
      if (url.protocol !== `${scheme}:`) return false;
      if (port && url.port !== port) return false;
      return wildcard ? url.hostname.endsWith(`.${host}`) : url.hostname === host;
    });
}

/** A push service's answer that means the subscription is gone for good (RFC 8030 §7.3, 404/410). */
const GONE = new Set([404, 410]);

export class WebPushSender {
  private readonly vapid: { subject: string; publicKey: string; privateKey: string };

  constructor(
    config: Pick<Config, "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT">,
    private readonly log: Logger,
  ) {
    this.vapid = { subject: config.VAPID_SUBJECT, publicKey: config.VAPID_PUBLIC_KEY!, privateKey: config.VAPID_PRIVATE_KEY! };
  }

  /** The sender when VAPID keys are configured, else undefined (push is off). */
  static fromConfig(config: Config, log: Logger): WebPushSender | undefined {
    return config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY ? new WebPushSender(config, log) : undefined;
  }

  /** Tells the user's devices about `event` when it is one they are told about; never throws. */
  forward<E extends keyof ServerEvents>(userId: string, event: E, payload: ServerEvents[E]): void {
    const notice = noticeOf(event, payload);
    if (!notice) return;
    this.send(userId, notice).catch((error: unknown) => this.log.warn({ err: error, userId }, "web push failed"));
  }

  /** Sends `notice` to every device of the user; a device the push service says is gone is forgotten. */
  async send(userId: string, notice: Notice): Promise<void> {
    const devices = await PushSubscriptionModel.find({ userId }).lean();
    await Promise.all(
      devices.map(async (device) => {
        const payload = JSON.stringify(payloadOf(notice, device.language));
        try {
          await webpush.sendNotification(
            { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
            payload,
            {
              vapidDetails: this.vapid,
              // A job's news is worth a day; after that the screen says it anyway.
              TTL: 24 * 3600,
              urgency: "normal",
              timeout: 10_000,
            },
          );
        } catch (error) {
          if (error instanceof WebPushError && GONE.has(error.statusCode)) {
            await PushSubscriptionModel.deleteOne({ _id: device._id, endpoint: device.endpoint });
            return;
          }
          this.log.warn({ err: error, userId }, "web push to a device failed");
        }
      }),
    );
  }
}

/** Devices one user gets notifications on; subscribing one more forgets the longest unused. */
export const MAX_PUSH_DEVICES = 10;

/** Stores this device's subscription for the session's user (the same endpoint again replaces it). */
export async function saveSubscription(userId: string, sessionId: string, input: PushSubscribeRequest): Promise<void> {
  await PushSubscriptionModel.updateOne(
    { endpoint: input.endpoint },
    { $set: { userId, sessionId, p256dh: input.keys.p256dh, auth: input.keys.auth, language: input.language } },
    { upsert: true },
  );
  const extra = await PushSubscriptionModel.find({ userId }, { _id: 1 }).sort({ updatedAt: -1 }).skip(MAX_PUSH_DEVICES).lean();
  if (extra.length > 0) await PushSubscriptionModel.deleteMany({ _id: { $in: extra.map((d) => d._id) } });
}

/** Ends one device's subscription of the user's (the browser unsubscribed). */
export async function removeSubscription(userId: string, endpoint: string): Promise<void> {
  await PushSubscriptionModel.deleteOne({ endpoint, userId });
}

/** Ends the subscriptions made in one login session (logout). */
export async function endSessionSubscriptions(sessionId: string): Promise<void> {
  await PushSubscriptionModel.deleteMany({ sessionId });
}

/**
 * A password change: the user's devices stop getting pushes, except the one that changed it (its
 * session lives on under a new id).
 */
export async function keepOnlySessionSubscriptions(userId: string, oldSessionId: string, newSessionId: string): Promise<void> {
  await PushSubscriptionModel.deleteMany({ userId, sessionId: { $ne: oldSessionId } });
  await PushSubscriptionModel.updateMany({ userId, sessionId: oldSessionId }, { $set: { sessionId: newSessionId } });
}
