import {
  adminLoginRequestSchema,
  adminLoginResponseSchema,
  adminSessionResponseSchema,
  noInputSchema,
  successSchema,
} from "@storefront/shared";
import { adminLogin, limitLoginAttempts } from "../../services/auth";
import { defineRoute, TAGS } from "../define";

export const adminAuthRoutes = [
  defineRoute({
    method: "post",
    paths: ["/admin/login.php", "/admin/login"],
    tag: TAGS.admin,
    summary: "Administrator login",
    auth: "none",
    body: adminLoginRequestSchema,
    response: adminLoginResponseSchema,
    errors: [400, 401, 429],
    handler: async ({ body, req, ctx }) => {
      await limitLoginAttempts(ctx.redis, ctx.config, `admin:${body.username}`, req.ip);
      const admin = await adminLogin(req, body.username, body.password);
      return { success: true as const, admin, message: "Login successful! Welcome to Admin Dashboard" };
    },
  }),

  defineRoute({
    method: "post",
    paths: ["/admin/logout.php", "/admin/logout"],
    tag: TAGS.admin,
    summary: "End the admin session",
    auth: "none",
    body: noInputSchema,
    response: successSchema,
    errors: [],
    handler: ({ req, ctx }) => {
      delete req.session.adminId;
      delete req.session.adminRole;
      ctx.pusher.leaveAdmins(req.sessionID);
      return { success: true as const };
    },
  }),

  defineRoute({
    method: "get",
    paths: ["/admin/session.php", "/admin/session"],
    tag: TAGS.admin,
    summary: "The logged-in administrator",
    auth: "admin",
    response: adminSessionResponseSchema,
    errors: [401],
    handler: ({ req }) => ({ success: true as const, admin: req.admin! }),
  }),
];
