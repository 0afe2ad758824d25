/**
 * Socket.IO on the API's own http server (DESIGN §6): same origin, path /socket.io, the session
 * cookie authenticates, each user sits in `user:<id>`, admins in `admins`, and every socket in
 * `session:<sid>` of its login session (closed at logout). The Redis adapter
 * lets pushes from any process (the workers' emitter included) reach whichever API holds the socket.
 */
import type { IncomingMessage, Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import type { Session, SessionData } from "express-session";
import { Server, type Socket } from "socket.io";
import { adminsRoom, sessionRoom, userRoom, type ServerEvents } from "@storefront/shared";
import { OutageLog, watchRedis } from "@storefront/shared/server";
import type { AppContext } from "../context";
import { sessionHolders, type SessionClaims } from "../middleware/auth";
import { configuredOrigins, isAllowedOrigin, senderOrigin } from "../middleware/cross-site";
import { sessionMiddleware } from "../middleware/session";

type SessionRequest = IncomingMessage & { session?: Session & Partial<SessionData>; sessionID?: string };

/** Server→client events are the shared ServerEvents map; clients send nothing. */
type ClientEvents = Record<string, never>;
type EmitEvents = { [E in keyof ServerEvents]: (payload: ServerEvents[E]) => void };

export interface SocketData {
  userId: string | null;
  adminId: string | null;
}

export type PushServer = Server<ClientEvents, EmitEvents, Record<string, never>, SocketData>;

/** The session's user and administrator ids, each only while sessionHolders (HTTP's rule) accepts it. */
async function socketHolders(session: SessionClaims | undefined): Promise<SocketData> {
  const { user, admin } = await sessionHolders(session, { fresh: true });
  return { userId: user && user !== "inactive" ? user.id : null, adminId: admin?.id ?? null };
}

export function attachSocketServer(httpServer: HttpServer, ctx: AppContext): { io: PushServer; close(): Promise<void> } {
  // Their own connections, with an error handler each: an outage is logged once, not per retry.
  // No command timeout: the adapter does not await its publishes, which wait out an outage.
  const outage = new OutageLog(ctx.log, "redis (push)");
  const pub = watchRedis(ctx.redis.duplicate({ commandTimeout: undefined }), outage);
  const sub = watchRedis(ctx.redis.duplicate({ commandTimeout: undefined }), outage);
  const allowedOrigins = configuredOrigins(ctx.config);
  const io: PushServer = new Server(httpServer, {
    path: "/socket.io",
    serveClient: false,
    // Same origin only: the web app is served by this process (DESIGN §4).
    cors: { origin: false },
    // CORS headers do not guard a websocket: a page on another site could open one with the
    // user's cookie and read their pushes. Its Origin is checked as for cookie-authorised calls.
    allowRequest: (req, callback) => {
      const origin = senderOrigin(req.headers);
      const ok = origin === undefined || isAllowedOrigin(origin, req.headers.host, allowedOrigins);
      callback(ok ? null : "origin not allowed", ok);
    },
    adapter: createAdapter(pub, sub),
  });

  // The very express-session middleware of the HTTP API, so a socket sees the same session.
  io.engine.use(sessionMiddleware(ctx.redis, ctx.config.SESSION_SECRET));

  io.use((socket, next) => {
    const session = (socket.request as SessionRequest).session;
    socketHolders(session).then(
      (holders) => {
        if (!holders.userId && !holders.adminId) return next(new Error("unauthorized"));
        socket.data = holders;
        next();
      },
      (error: unknown) => {
        ctx.log.warn({ err: error }, "socket authentication failed");
        next(new Error("unavailable"));
      },
    );
  });

  io.on("connection", (socket: Socket<ClientEvents, EmitEvents, Record<string, never>, SocketData>) => {
    const { userId } = socket.data;
    const sessionId = (socket.request as SessionRequest).sessionID;
    if (sessionId) void socket.join(sessionRoom(sessionId));
    if (userId) {
      void socket.join(userRoom(userId));
      // A deactivation between the handshake check and the join closed the room without this
      // socket in it: look once more now that it is in.
      sessionHolders({ userId }, { fresh: true }).then(
        ({ user }) => {
          if (!user || user === "inactive") socket.disconnect(true);
        },
        () => undefined,
      );
    }
    if (socket.data.adminId) void socket.join(adminsRoom());
  });

  return {
    io,
    async close() {
      await io.close();
      await Promise.all([pub.quit().catch(() => undefined), sub.quit().catch(() => undefined)]);
    },
  };
}
