import {
  smsAiRequestSchema,
  smsAiResponseSchema,
  smsConversationsQuerySchema,
  smsConversationsResponseSchema,
  smsLearnedResponseRequestSchema,
  smsLearnedResponseResponseSchema,
} from "@storefront/shared";
import { assertOwnUserId } from "../../../middleware/auth";
import { learnedResponse, smsAiReply, smsConversations } from "../../../services/sms-ai";
import { defineRoute, TAGS } from "../../define";

/**
 * The SMS AI screen (SPEC §2): the backend AI send of SPEC §7, and the two calls its notes name
 * without paths (docs/decisions.md): the conversations lookup and the learned-response lookup.
 */
export const smsAiRoutes = [
  defineRoute({
    method: "post",
    paths: ["/sms/ai-response.php", "/sms/ai-response"],
    tag: TAGS.sms,
    summary: "SMS AI reply for the web screen (last 10 history entries as context)",
    auth: "user",
    body: smsAiRequestSchema,
    response: smsAiResponseSchema,
    errors: [400, 401, 402, 403, 429, 504],
    handler: ({ body, req, ctx }) =>
      smsAiReply(ctx, body, {
        userId: assertOwnUserId(req, body.userId),
        phone: req.user!.phone,
        idempotencyKey: req.get("Idempotency-Key"),
        requestId: String(req.id),
        ...(req.arrivedAt ? { arrivedAt: req.arrivedAt } : {}),
      }),
  }),

  defineRoute({
    method: "get",
    paths: ["/sms/conversations.php", "/sms/conversations"],
    tag: TAGS.sms,
    summary: "SMS AI: the session user's SMS conversation history (SPEC §7's conversations lookup)",
    auth: "user",
    query: smsConversationsQuerySchema,
    response: smsConversationsResponseSchema,
    errors: [400, 401, 403],
    handler: ({ query, req }) => smsConversations(assertOwnUserId(req, query.userId), query),
  }),

  defineRoute({
    method: "post",
    paths: ["/sms/learned-response.php", "/sms/learned-response"],
    tag: TAGS.sms,
    summary: "SMS AI: a cached earlier answer for the same normalised message and language (SPEC §7's learned-response lookup)",
    auth: "user",
    body: smsLearnedResponseRequestSchema,
    response: smsLearnedResponseResponseSchema,
    errors: [400, 401, 403],
    handler: ({ body, req }) => learnedResponse(assertOwnUserId(req, body.userId), body),
  }),
];
