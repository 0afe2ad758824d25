/** The SMS log steps of the message a job handles (SPEC §9 actions), written by shared/src/server/sms-logs.ts. */
import { logSmsSteps, type SmsLogStep } from "@storefront/shared/server";
import type { Context, SmsReplyOutcome } from "./types";

export type Step = SmsLogStep;

/** Writes log steps in one round-trip; each step's key makes a retried job write it once. */
export async function logSteps(ctx: Context, ...steps: Step[]): Promise<void> {
  await logSmsSteps(
    {
      messageId: ctx.job.messageId,
      key: ctx.key,
      userId: ctx.user?.id ?? null,
      userName: ctx.user?.name ?? "Unknown",
      phone: ctx.phone,
    },
    steps,
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
