/**
 * Server→client pushes from any process (API or worker) through the Socket.IO Redis emitter;
 * the API's Redis adapter delivers them to whichever process holds the socket.
 */
import { Emitter } from "@socket.io/redis-emitter";
import type { Redis } from "ioredis";
import { adminsRoom, sessionRoom, userRoom, type ServerEvents } from "../events";
import type { WebPushSender } from "./web-push";

export class Pusher {
  private readonly emitter: Emitter;

  /** `webPush` also tells the user's subscribed devices about a job's end and the low-balance notice (web-push.ts). */
  constructor(
    redis: Redis,
    private readonly webPush?: WebPushSender,
  ) {
    // The emitter publishes without awaiting: a push that fails while Redis is down (or times
    // out) is dropped, not left as an unhandled rejection. Pushes are best effort; screens re-read.
    const publisher = { publish: (channel: string, message: string | Buffer) => redis.publish(channel, message).catch(() => 0) };
    this.emitter = new Emitter(publisher as unknown as Redis);
  }

  toUser<E extends keyof ServerEvents>(userId: string, event: E, payload: ServerEvents[E]): void {
    this.emitter.to(userRoom(userId)).emit(event, payload);
    this.webPush?.forward(userId, event, payload);
  }

  toAdmins<E extends keyof ServerEvents>(event: E, payload: ServerEvents[E]): void {
    this.emitter.to(adminsRoom()).emit(event, payload);
  }

  /** Closes every socket the user holds, on whichever API process (a deactivated account). */
  disconnectUser(userId: string): void {
    this.emitter.in(userRoom(userId)).disconnectSockets(true);
  }

  /** Closes every socket opened with one login session, on whichever API process (logout). */
  disconnectSession(sessionId: string): void {
    this.emitter.in(sessionRoom(sessionId)).disconnectSockets(true);
  }

  /**
   * A password change: the sockets of the session that made it follow it to its regenerated id,
   * and every other socket of the user is closed.
   */
  keepOnlySession(userId: string, oldSessionId: string, newSessionId: string): void {
    this.emitter.in(sessionRoom(oldSessionId)).socketsJoin(sessionRoom(newSessionId));
    this.emitter.in(userRoom(userId)).except(sessionRoom(newSessionId)).disconnectSockets(true);
  }

  /** An administrator signed out of a session that stays signed in as a user: no more admin pushes. */
  leaveAdmins(sessionId: string): void {
    this.emitter.in(sessionRoom(sessionId)).socketsLeave(adminsRoom());
  }
}
