import type { JobFailureCode } from "./job-failure";
import type { ChargedQueueName } from "./queues";
import type { HeldQueueName, JobCompleted } from "./schemas/jobs";

/** Server→client Socket.IO events (docs/realtime.md): name → payload. Every job event carries its jobId. */
export interface ServerEvents {
  "wallet:updated": { coins: number; reason: string };
  /** Once per crossing below the low-balance threshold (again only after the balance went back above it). */
  "wallet:low": { coins: number; threshold: number };
  "job:progress": { jobId: string; queue: ChargedQueueName; progress: number; stage?: string };
  "chat:delta": { jobId: string; conversationId: string | null; delta: string };
  /** One shape per queue, told apart by `queue` (shared/src/schemas/jobs.ts jobResults). */
  "job:completed": JobCompleted;
  /**
   * A held job failed for good and its hold was released. `error` is the code's neutral text
   * (shared/src/job-failure.ts), never the provider's. A job refused when it ran again carries the
   * figures of the 402 its call would have had (insufficient_coins: needed and available;
   * daily_cap_reached: cap, spent and needed), for the screen's text.
   */
  "job:failed": {
    jobId: string;
    queue: HeldQueueName;
    code: JobFailureCode;
    error: string;
    refunded: number;
    needed?: number;
    available?: number;
    cap?: number;
    spent?: number;
  };
  "video:status": { jobId: string; videoId: string; status: "processing" | "completed" | "failed"; videoUrl: string | null };
  "queues:stats": { at: string; queues: Record<string, Record<string, number>> };
}

export const userRoom = (userId: string) => `user:${userId}`;
export const adminsRoom = () => "admins";
/** Every socket opened with one login session: closed together at logout or password change. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
