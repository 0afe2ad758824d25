/** The SMS log (SPEC §9 actions): one keyed row per step, so a retried job writes each once. */
import type { SmsLogAction } from "@storefront/shared";
import { SmsLog } from "@storefront/shared/server";
import type { Context, SmsReplyOutcome } from "./types";

export type Step = [action: SmsLogAction, step: string, details: Record<string, unknown>];

/** Writes log steps in one round-trip; each step's key makes a retried job write it once. */
export async function logSteps(ctx: Context, ...steps: Step[]): Promise<void> {
  await SmsLog.bulkWrite(
    steps.map(([action, step, details]) => ({
      updateOne: {
        filter: { key: `${ctx.job.messageId}:${step}` },
        update: {
          $setOnInsert: {
            action,
            user_id: ctx.user?.id ?? null,
            user_name: ctx.user?.name ?? "Unknown",
            phone: ctx.phone,
            message_id: ctx.job.messageId,
            details: JSON.stringify(details),
          },
        },
        upsert: true,
      },
    })),
    { ordered: true },
  );
}

/** The last step of every message: its outcome, which also marks the message as done. */
export function outcomeStep(outcome: SmsReplyOutcome, details: Record<string, unknown> = {}): Step {
  return ["sms_processed", "processed", { result: outcome, ...details }];
}

export async function finish(
  ctx: Context,
  outcome: SmsReplyOutcome,
  details: Record<string, unknown> = {},
  ...before: Step[]
): Promise<{ outcome: SmsReplyOutcome }> {
  await logSteps(ctx, ...before, outcomeStep(outcome, details));
  return { outcome };
}
