/**
 * Fail fast while a dependency is down (issue: survive crashes): with Redis or the database
 * unreachable every API call would wait on it, so it answers 503 at once, naming what is down,
 * before any session lookup or charge. /api/health and /api/ready answer on their own.
 */
import type { RequestHandler } from "express";
import type { Redis } from "ioredis";
import mongoose from "mongoose";
import { MESSAGES } from "@storefront/shared";
import { isConnectionError } from "@storefront/shared/server";
import type { AppContext } from "../context";
import { AppError } from "../errors";

/**
 * Redis connections whose server stopped answering though the connection stays open (a frozen or
 * overloaded server): the connection's own state still says "ready", so without this every call
 * would wait out its command timeout. Cleared by the first ping that answers.
 */
const unresponsive = new WeakSet<Redis>();
/** The connection whose timeouts the error handler reports (the API's own). */
let watched: Redis | undefined;

/** A command or ping on `redis` got no answer in time: refuse calls at once until one does. */
export function noteRedisUnresponsive(redis: Redis): void {
  if (unresponsive.has(redis)) return;
  unresponsive.add(redis);
  const probe = () => {
    // A connection this process closed answers nothing again: stop probing it.
    if (redis.status === "end") return void unresponsive.delete(redis);
    void redis.ping().then(
      () => unresponsive.delete(redis),
      () => setTimeout(probe, 250).unref(),
    );
  };
  probe();
}

/** Dependencies this process cannot reach right now (its connections' own view; no round trip). */
function downDependencies(ctx: Pick<AppContext, "redis">): string[] {
  const down: string[] = [];
  if (mongoose.connection.readyState !== mongoose.ConnectionStates.connected) down.push("mongodb");
  if (ctx.redis.status !== "ready" || unresponsive.has(ctx.redis)) down.push("redis");
  return down;
}

const PROBES = new Set(["/health", "/ready"]);

export function failFastWhenDown(ctx: Pick<AppContext, "redis">): RequestHandler {
  watched = ctx.redis;
  return (req, res, next) => {
    if (PROBES.has(req.path)) return next();
    const down = downDependencies(ctx);
    if (down.length === 0) return next();
    next(new AppError(503, "unavailable", MESSAGES.serviceUnavailable, { missing: down, retryAfter: 2 }));
  };
}

/**
 * A call already under way when a dependency went away fails with the driver's error (a Redis
 * command timeout, a lost or unselectable MongoDB server, mongoose's buffering timeout): that is
 * the same 503, not a 500.
 */
export function dependencyFailure(error: unknown): AppError | null {
  const e = error as { name?: string; message?: string } | undefined;
  if (e?.message === "Command timed out" && watched) noteRedisUnresponsive(watched);
  const lost =
    isConnectionError(error) ||
    /^Mongo(ServerSelection|Network|NetworkTimeout|TopologyClosed|PoolCleared)Error$/u.test(e?.name ?? "") ||
    /^Command timed out$|buffering timed out/u.test(e?.message ?? "");
  return lost ? new AppError(503, "unavailable", MESSAGES.serviceUnavailable, { retryAfter: 2 }) : null;
}
