/**
 * This device's Web Push subscription: made with the server's VAPID key and stored on the server
 * in the interface's language (api/src/routes/push/push.ts). The browser asks the user's permission
 * only when `enablePush` is called, from a button they pressed (PushOffer).
 */
import type { z } from "zod";
import type { Language, pushKeyResponseSchema } from "@storefront/shared";
import { get, post } from "../api/client";

export type PushState = "unsupported" | "default" | "denied" | "granted";

export function pushState(): PushState {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return "unsupported";
  return Notification.permission;
}

/** Subscribes this device (asking the permission if it was not given) and tells the server; the permission after. */
export async function enablePush(language: Language): Promise<PushState> {
  if (pushState() === "unsupported") return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission;
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await get<z.output<typeof pushKeyResponseSchema>>("/push/key");
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
  await post("/push/subscriptions", { ...subscription.toJSON(), language });
  return "granted";
}
