import {
  conversationDeleteRequestSchema,
  conversationListQuerySchema,
  conversationListResponseSchema,
  conversationLoadQuerySchema,
  conversationLoadResponseSchema,
  conversationSaveRequestSchema,
  conversationSaveResponseSchema,
  successSchema,
} from "@storefront/shared";
import { assertOwnUserId } from "../../middleware/auth";
import { deleteConversation, listConversations, loadConversation, saveConversation } from "../../services/conversations";
import { defineRoute, TAGS } from "../define";

/** conversations/list.php, load.php, save.php, delete.php (SPEC §7); clean aliases share the handlers. */
export const conversationRoutes = [
  defineRoute({
    method: "get",
    paths: ["/conversations/list.php", "/conversations"],
    tag: TAGS.chat,
    summary: "The session user's conversations",
    auth: "user",
    query: conversationListQuerySchema,
    response: conversationListResponseSchema,
    errors: [400, 401, 403],
    handler: async ({ query, req }) => ({
      success: true as const,
      conversations: await listConversations(assertOwnUserId(req, query.userId), query.kind),
    }),
  }),

  defineRoute({
    method: "get",
    paths: ["/conversations/load.php"],
    tag: TAGS.chat,
    summary: "One conversation with its messages (owner only)",
    auth: "user",
    query: conversationLoadQuerySchema,
    response: conversationLoadResponseSchema,
    errors: [400, 401, 403, 404],
    handler: ({ query, req }) => loadConversation(assertOwnUserId(req, query.userId), query.conversationId),
  }),

  defineRoute({
    method: "post",
    paths: ["/conversations/save.php", "/conversations/save"],
    tag: TAGS.chat,
    summary: 'Save a conversation ("new" creates one)',
    auth: "user",
    body: conversationSaveRequestSchema,
    response: conversationSaveResponseSchema,
    errors: [400, 401, 403, 404],
    handler: ({ body, req }) => saveConversation(assertOwnUserId(req, body.userId), body),
  }),

  defineRoute({
    method: "post",
    paths: ["/conversations/delete.php", "/conversations/delete"],
    tag: TAGS.chat,
    summary: "Delete a conversation (owner only)",
    auth: "user",
    body: conversationDeleteRequestSchema,
    response: successSchema,
    errors: [400, 401, 403, 404],
    handler: ({ body, req }) => deleteConversation(assertOwnUserId(req, body.userId), body.conversationId),
  }),
];
