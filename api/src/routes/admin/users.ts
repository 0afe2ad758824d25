import {
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  toggleUserRequestSchema,
  toggleUserResponseSchema,
} from "@storefront/shared";
import { listUsers, setUserActive } from "../../services/admin-users";
import { defineRoute, TAGS } from "../define";

const paths = ["/admin/users.php", "/admin/users"] as const;

export const adminUsersRoutes = [
  defineRoute({
    method: "get",
    paths,
    tag: TAGS.admin,
    summary: "Subscribers with usage",
    auth: "admin",
    permission: "users:view",
    query: adminUsersQuerySchema,
    response: adminUsersResponseSchema,
    errors: [400, 401, 403],
    handler: ({ query }) => listUsers(query),
  }),

  defineRoute({
    method: "put",
    paths,
    tag: TAGS.admin,
    summary: "Activate or deactivate a subscriber",
    auth: "admin",
    permission: "users:toggle",
    body: toggleUserRequestSchema,
    response: toggleUserResponseSchema,
    errors: [400, 401, 403, 404],
    handler: ({ body, req, ctx }) => setUserActive(ctx.pusher, req.admin!, body.userId, body.isActive),
  }),
];
