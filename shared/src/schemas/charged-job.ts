/**
 * The fields every held job carries besides its own payload. A module of its own so the payload
 * schemas (images, videos, jobs) and the queue → schema map in jobs.ts import it without a cycle.
 */
import { z } from "zod";

export const chargedJobBaseSchema = z.object({
  userId: z.string().regex(/^[a-f0-9]{24}$/u, "userId must be a 24-character hex id"),
  /** Ledger key of the hold that pays for this job; settled on success, released on final failure. */
  holdKey: z.string().min(1).max(300),
  /** The HTTP request that accepted the job, carried into the worker's logs. */
  requestId: z.string().max(100).optional(),
  /**
   * When the HTTP request that accepted the job arrived (ms since the epoch): a waited-on call's
   * retry budget (AI_RETRY_BUDGET_MS) counts from here, so its caller has an answer within it.
   */
  arrivedAt: z.number().int().positive().optional(),
});
export type ChargedJobBase = z.infer<typeof chargedJobBaseSchema>;
