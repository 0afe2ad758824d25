/**
 * The service worker's side of Web Push: shows the notification a push carries and opens its screen
 * when tapped. The payload names the job and the screen, never what was asked or answered
 * (shared/src/push.ts); the screen fetches the rest.
 */
/// <reference lib="webworker" />
import { pushPayloadSchema } from "../../../shared/src/schemas/push";

const ICON = "/icons/icon-192.png";

export async function handlePush(registration: ServiceWorkerRegistration, data: PushMessageData | null): Promise<void> {
  let raw: unknown;
  try {
    raw = data?.json();
  } catch {
    return;
  }
  const parsed = pushPayloadSchema.safeParse(raw);
  if (!parsed.success) return;
  const payload = parsed.data;
  await registration.showNotification(payload.title, {
    body: payload.body,
    lang: payload.lang,
    dir: payload.lang === "ar" ? "rtl" : "ltr",
    icon: ICON,
    badge: ICON,
    // A job's later notice (failed after progress, say) replaces its earlier one.
    tag: payload.tag,
    data: { url: payload.url },
  });
}

/** A same-origin path only: a payload must not send the user to another site. */
function screenOf(data: unknown): string {
  const url = (data as { url?: unknown } | null)?.url;
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : "/dashboard";
}

/** Shows the screen in an open window of the app (focused), else in a new one. */
export async function openFromNotification(clients: Clients, data: unknown): Promise<void> {
  const url = new URL(screenOf(data), self.location.origin).href;
  const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows[0];
  if (open) {
    const shown = (await open.navigate(url)) ?? open;
    await shown.focus().catch(() => undefined);
    return;
  }
  await clients.openWindow(url);
}
