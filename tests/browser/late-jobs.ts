/**
 * What the browser tests of late jobs share: the API's 503 (`queued: true`) and 504 bodies, given by
 * the page's router, and a job's end pushed as a worker does (through the stack's Redis, the API's
 * Socket.IO adapter and the page's socket).
 */
import type { ServerEvents } from "@storefront/shared";
import type { Pusher } from "@storefront/shared/server";

/** The 503 of a call whose worker froze (api/src/services/frozen-workers.ts): coins returned, job still queued. */
export const queuedAnswer = (jobId: string) => ({
  status: 503,
  contentType: "application/json",
  body: JSON.stringify({
    success: false,
    code: "unavailable",
    error: "No worker has answered for a while.",
    jobId,
    refunded: true,
    queued: true,
    retryAfter: 5,
  }),
});

export const LATE_TEXT = "The reply is taking longer than expected; it will arrive when ready.";

/** The 504 of a call whose job outlived the wait (api/src/job-waiter.ts): the job carries on. */
export const lateAnswer = (jobId: string) => ({
  status: 504,
  contentType: "application/json",
  body: JSON.stringify({ success: false, code: "timeout", error: LATE_TEXT, jobId }),
});

/**
 * Pushes a job's end to the user until `done` holds: a push sent before the page's socket has
 * joined the user's room reaches no one, and the screen takes a job's end once (a second push is ignored).
 */
export async function pushUntil<E extends "job:completed" | "job:failed">(
  pusher: Pusher,
  userId: string,
  event: E,
  payload: ServerEvents[E],
  done: () => Promise<unknown>,
): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    pusher.toUser(userId, event, payload);
    try {
      await done();
      return;
    } catch (error) {
      if (attempt >= 20) throw error;
    }
  }
}
