import {
  authResponseSchema,
  canonicalPhone,
  changePasswordRequestSchema,
  loginRequestSchema,
  noInputSchema,
  sessionCheckResponseSchema,
  signupRequestSchema,
  successSchema,
} from "@storefront/shared";
import { User } from "@storefront/shared/server";
import { SESSION_COOKIE } from "../../middleware/session";
import { changePassword, limitLoginAttempts, limitSignups, login, logout, sessionUserBody, signup } from "../../services/auth";
import { accountPhone, ACCOUNT_PHONE_FIELDS, codeRequester } from "../../services/phone-proof";
import { defineRoute, TAGS } from "../define";

/** Subscriber accounts: SPEC §7 paths, with clean aliases served by the same handlers. */
export const authRoutes = [
  defineRoute({
    method: "post",
    paths: ["/signup.php", "/auth/signup"],
    tag: TAGS.account,
    summary: "Create a subscriber account and log in",
    auth: "none",
    body: signupRequestSchema,
    response: authResponseSchema,
    status: 201,
    errors: [400, 409, 429],
    handler: async ({ body, req, ctx }) => {
      // A signup that brings the code of its number is one real phone: the code's own limits apply.
      if (!body.code) await limitSignups(ctx.redis, ctx.config, req.ip);
      const user = await signup(ctx, body, codeRequester(req));
      return { ...sessionUserBody(user), message: "Subscribed successfully" };
    },
  }),

  defineRoute({
    method: "post",
    paths: ["/login-session-fix.php", "/auth/login"],
    tag: TAGS.account,
    summary: "Log in with phone and password (regenerates the session)",
    auth: "none",
    body: loginRequestSchema,
    response: authResponseSchema,
    errors: [400, 401, 403, 429],
    handler: async ({ body, req, ctx }) => {
      const phoneKey = canonicalPhone(body.phone, ctx.config.DEFAULT_PHONE_COUNTRY);
      await limitLoginAttempts(ctx.redis, ctx.config, phoneKey, req.ip);
      return sessionUserBody(await login(req, ctx.redis, body, ctx.config.DEFAULT_PHONE_COUNTRY));
    },
  }),

  defineRoute({
    method: "get",
    paths: ["/session-check-simple.php", "/auth/session"],
    tag: TAGS.account,
    summary: "Whether the session is logged in, and as whom",
    auth: "none",
    query: noInputSchema,
    response: sessionCheckResponseSchema,
    errors: [],
    handler: async ({ req }) => {
      const userId = req.session?.userId;
      if (!userId) return { success: true, authenticated: false, user: null };
      const user = await User.findById(userId, { ...ACCOUNT_PHONE_FIELDS, isActive: 1 }).lean();
      if (!user?.isActive) {
        delete req.session.userId;
        delete req.session.phone;
        return { success: true, authenticated: false, user: null };
      }
      return { success: true, authenticated: true, user: { id: userId, ...accountPhone(user) } };
    },
  }),

  defineRoute({
    method: "post",
    paths: ["/logout.php", "/auth/logout"],
    tag: TAGS.account,
    summary: "Destroy the session",
    auth: "none",
    body: noInputSchema,
    response: successSchema,
    errors: [],
    handler: async ({ req, res, ctx }) => {
      await logout(req, ctx.pusher);
      res.clearCookie(SESSION_COOKIE, { path: "/" });
      return { success: true as const };
    },
  }),

  defineRoute({
    method: "post",
    paths: ["/user/change-password.php", "/auth/change-password"],
    tag: TAGS.account,
    summary: "Change the password: ends the user's other sessions and their sockets, keeps this one",
    auth: "user",
    body: changePasswordRequestSchema,
    response: successSchema,
    errors: [400, 401, 429],
    handler: ({ body, req, ctx }) => changePassword(req, ctx, body),
  }),
];
