import { Router } from "express";
import { canonicalPhone, changePasswordRequestSchema, loginRequestSchema, signupRequestSchema } from "@storefront/shared";
import { z } from "zod";
import type { AppContext } from "../../context";
import { requireUser } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { changePassword, limitLoginAttempts, limitSignups, login, logout, sessionUserBody, signup } from "../../services/auth";
import { User } from "@storefront/shared/server";

const noInput = z.object({}).passthrough();

/** Subscriber accounts: SPEC §7 paths, with clean aliases served by the same handlers. */
export function authRoutes(ctx: AppContext): Router {
  const router = Router();

  const signupHandler = handle(signupRequestSchema, "body", async (input, req, res) => {
    await limitSignups(ctx.redis, ctx.config, req.ip ?? "unknown");
    const user = await signup(input, ctx.config.DEFAULT_PHONE_COUNTRY);
    res.status(201);
    return { ...sessionUserBody(user), message: "Subscribed successfully" };
  });
  router.post(["/signup.php", "/auth/signup"], signupHandler);

  const loginHandler = handle(loginRequestSchema, "body", async (input, req) => {
    const phoneKey = canonicalPhone(input.phone, ctx.config.DEFAULT_PHONE_COUNTRY);
    await limitLoginAttempts(ctx.redis, ctx.config, phoneKey, req.ip ?? "unknown");
    return sessionUserBody(await login(req, input, ctx.config.DEFAULT_PHONE_COUNTRY));
  });
  router.post(["/login-session-fix.php", "/auth/login"], loginHandler);

  const sessionHandler = handle(noInput, "query", async (_input, req) => {
    const userId = req.session?.userId;
    if (!userId) return { success: true, authenticated: false, user: null };
    const user = await User.findById(userId, { phone: 1, isActive: 1 }).lean<{ phone: string; isActive: boolean }>();
    if (!user?.isActive) {
      delete req.session.userId;
      delete req.session.phone;
      return { success: true, authenticated: false, user: null };
    }
    return { success: true, authenticated: true, user: { id: userId, phone: user.phone } };
  });
  router.get(["/session-check-simple.php", "/auth/session"], sessionHandler);

  const logoutHandler = handle(noInput, "body", async (_input, req, res) => {
    await logout(req, ctx.pusher);
    res.clearCookie("sf.sid", { path: "/" });
    return { success: true };
  });
  router.post(["/logout.php", "/auth/logout"], logoutHandler);

  router.post(
    ["/user/change-password.php", "/auth/change-password"],
    requireUser,
    handle(changePasswordRequestSchema, "body", (input, req) => changePassword(req, ctx, input)),
  );

  return router;
}
