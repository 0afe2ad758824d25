import { existsSync } from "node:fs";
import express, { type Express } from "express";
import type { AppContext } from "./context";
import { crossSiteGuard } from "./middleware/cross-site";
import { failFastWhenDown } from "./middleware/dependencies";
import { errorHandler, notFoundHandler } from "./middleware/errors";
import { httpMetrics } from "./middleware/metrics";
import { requestLog } from "./middleware/request-log";
import { securityHeaders } from "./middleware/security-headers";
import { sessionMiddleware } from "./middleware/session";
import { webApp } from "./middleware/web-app";
import { apiRoutes, ownBodyRoutes } from "./routes/index";
import { loggedUrl } from "./routes/sms/integration/webhook";
import { idempotencyKeyOf } from "./services/wallet";

export interface AppOptions {
  /** Built web app (web/dist) served beside the API from one origin. */
  webDist?: string;
}

export function createApp(ctx: AppContext, options: AppOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", ctx.config.TRUST_PROXY);
  app.use(httpMetrics());
  app.use(securityHeaders());

  app.use(requestLog(ctx.log, loggedUrl));

  // API answers carry account data (balances, history, messages): no browser or proxy keeps them,
  // unless a route says otherwise (the user's own images). With nothing kept, an ETag would only
  // cost a hash of every body; the web app's files get theirs from express.static.
  app.set("etag", false);
  app.use("/api", (_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });
  app.use("/api", failFastWhenDown(ctx));
  // Before the API's JSON parser: the webhook signature covers the raw body.
  app.use("/api", ownBodyRoutes(ctx));
  const api = express.Router();
  api.use(crossSiteGuard(ctx.config));
  // Checked before any route reads a body or stores an upload.
  api.use((req, _res, next) => {
    idempotencyKeyOf(req.get("Idempotency-Key"));
    next();
  });
  api.use(express.json({ limit: "1mb", strict: true }));
  api.use(sessionMiddleware(ctx.redis, ctx.config.SESSION_SECRET));
  api.use(apiRoutes(ctx));
  api.use(notFoundHandler);
  api.use(errorHandler);
  app.use("/api", api);

  if (options.webDist && existsSync(options.webDist)) app.use(webApp(options.webDist));
  app.use(errorHandler);
  return app;
}
