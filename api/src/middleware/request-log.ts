/**
 * Every request's id and log. The id is a valid incoming `X-Request-Id` (nginx sets one) or a fresh
 * UUID, answered in the `X-Request-Id` header and put on every line the request logs. `req.log` is
 * made on first use: most requests log nothing but their answer line, and a child logger per
 * request (what pino-http made, with a full serialised copy of the request) was 4% of the API's CPU
 * on a wallet read. The answer is logged once it is sent: error for a 5xx, info for a 4xx or a
 * client that left before its answer, debug otherwise, so LOG_LEVEL=info keeps the refusals,
 * failures and abandoned calls only.
 */
import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "@storefront/shared/server";

declare module "http" {
  interface IncomingMessage {
    /** This request's id (X-Request-Id). */
    id: string;
    /** A logger bound to this request's id, method and URL. */
    log: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/u;

function levelOf(status: number): "error" | "info" | "debug" {
  return status >= 500 ? "error" : status >= 400 ? "info" : "debug";
}

/** `urlForLog` shortens or masks what a URL must not put in the logs whole (the webhook's query). */
export function requestLog(log: Logger, urlForLog: (url: string) => string = (url) => url): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers["x-request-id"];
    const id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader("X-Request-Id", id);
    // The URL as it came: routers rewrite req.url on the way down.
    const url = req.originalUrl;
    let child: Logger | undefined;
    const requestLogger = () => (child ??= log.child({ req: { id, method: req.method, url: urlForLog(url) } }));
    Object.defineProperty(req, "log", {
      get: requestLogger,
      set: (logger: Logger) => void (child = logger),
      configurable: true,
    });
    const startedAt = Date.now();
    req.arrivedAt = startedAt;
    const answered = () => {
      res.removeListener("finish", answered);
      res.removeListener("close", answered);
      const aborted = !res.writableFinished;
      // A client that gave up before the answer is worth seeing at info, whatever the status said.
      const level = aborted ? "info" : levelOf(res.statusCode);
      if (!log.isLevelEnabled(level)) return;
      const message = aborted ? "request aborted" : res.statusCode >= 500 ? "request errored" : "request completed";
      requestLogger()[level]({ res: { statusCode: res.statusCode }, responseTime: Date.now() - startedAt }, message);
    };
    res.on("finish", answered);
    res.on("close", answered);
    next();
  };
}

declare module "express-serve-static-core" {
  interface Request {
    /** When the request arrived (ms since the epoch): waited-on calls' retry budgets count from it. */
    arrivedAt?: number;
  }
}
