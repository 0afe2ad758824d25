/**
 * Web Push subscriptions (issue 37): the server's public key, and this device's subscription made
 * or ended. What is sent, and when, lives in shared/src/server/web-push.ts.
 */
import {
  MESSAGES,
  noInputSchema,
  pushKeyResponseSchema,
  pushSubscribeRequestSchema,
  pushUnsubscribeRequestSchema,
  successSchema,
} from "@storefront/shared";
import { isAllowedPushEndpoint, removeSubscription, saveSubscription } from "@storefront/shared/server";
import { badRequest, unavailable } from "../../errors";
import { hit } from "../../middleware/rate-limit";
import { defineRoute, TAGS } from "../define";

/** Subscriptions (re)made per user per hour: a browser makes one per device, now and then. */
const SUBSCRIBES_PER_HOUR = 30;

export const pushRoutes = [
  defineRoute({
    method: "get",
    paths: ["/push/key"],
    tag: TAGS.account,
    summary: "The server's VAPID public key (base64url), which a browser subscribes to Web Push with",
    auth: "none",
    query: noInputSchema,
    response: pushKeyResponseSchema,
    errors: [503],
    handler: ({ ctx }) => {
      if (!ctx.config.VAPID_PUBLIC_KEY) throw unavailable("Notifications are not set up on this server");
      return { success: true as const, publicKey: ctx.config.VAPID_PUBLIC_KEY };
    },
  }),

  defineRoute({
    method: "post",
    paths: ["/push/subscriptions"],
    tag: TAGS.account,
    summary:
      "Subscribe this device to notifications of finished jobs and the low-balance notice, in `language`; ended at logout and password change",
    auth: "user",
    body: pushSubscribeRequestSchema,
    response: successSchema,
    errors: [400, 401, 429, 503],
    handler: async ({ body, req, ctx }) => {
      if (!ctx.config.VAPID_PUBLIC_KEY) throw unavailable("Notifications are not set up on this server");
      // The server will post to this address: only to a known push service, never one a caller picks.
      if (!isAllowedPushEndpoint(body.endpoint, ctx.config.PUSH_SERVICES)) {
        throw badRequest("endpoint must be a push service's address", "endpoint");
      }
      await hit(ctx.redis, `push-subscribe:${req.user!.id}`, SUBSCRIBES_PER_HOUR, 3600, MESSAGES.tooManyRequests);
      await saveSubscription(req.user!.id, req.sessionID, body);
      return { success: true as const };
    },
  }),

  defineRoute({
    method: "post",
    paths: ["/push/unsubscribe"],
    tag: TAGS.account,
    summary: "End this device's subscription (the browser unsubscribed)",
    auth: "user",
    body: pushUnsubscribeRequestSchema,
    response: successSchema,
    errors: [400, 401],
    handler: async ({ body, req }) => {
      await removeSubscription(req.user!.id, body.endpoint);
      return { success: true as const };
    },
  }),
];
