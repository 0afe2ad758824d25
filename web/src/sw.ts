/**
 * The service worker (built by vite-plugin-pwa from this file, Workbox inside): the app's shell and
 * hashed assets precached at install, stale-while-revalidate for the other files of this origin,
 * never the API or the socket; a page asked for with no network gets the bilingual offline page. A
 * new version waits until the page says the user chose to reload (UpdatePrompt). It also shows the
 * Web Push notifications of finished jobs and opens their screen when tapped (push.ts).
 */
/// <reference lib="webworker" />
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute, setCatchHandler } from "workbox-routing";
import { NetworkOnly, StaleWhileRevalidate } from "workbox-strategies";
import { handlePush, openFromNotification } from "./push/sw-push";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Parameters<typeof precacheAndRoute>[0] };

const OFFLINE_PAGE = "/offline.html";

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** The API and the socket answer for one user at one moment: never kept. */
function isApi(url: URL): boolean {
  return /^\/(?:api|socket\.io)(?:\/|$)/u.test(url.pathname);
}

// Pages come from the network (the server picks the language's page from the cookie, and a deploy
// is seen at once); with no network, the catch handler below answers.
registerRoute(({ request }) => request.mode === "navigate", new NetworkOnly());
registerRoute(
  ({ request, url }) => request.method === "GET" && url.origin === self.location.origin && !isApi(url),
  new StaleWhileRevalidate({ cacheName: "storefront-runtime" }),
);
setCatchHandler(async ({ request }) =>
  request.mode === "navigate" ? ((await matchPrecache(OFFLINE_PAGE)) ?? Response.error()) : Response.error(),
);

// The first version takes the open pages at once; a later one waits for the user's choice.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});
clientsClaim();

self.addEventListener("push", (event) => event.waitUntil(handlePush(self.registration, event.data)));
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // Started before waitUntil: the screen opens even for an event the page made itself (the tests).
  const opening = openFromNotification(self.clients, event.notification.data);
  event.waitUntil(opening);
});
