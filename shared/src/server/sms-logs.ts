/**
 * The one owner of SMS log rows (SPEC §3 SMS log entry, §9 actions). Every row has a unique key,
 * so a retried job or a second API process writes it once: `<message key>:<step>` for the steps of
 * one message (its last step, "processed", also marks the message as done), and
 * `error:<address>:<window start>` for the one row a client address's failed webhook calls share
 * per window. The admin screens read them (api/src/services/sms-logs.ts) and never write.
 */
import { Types } from "mongoose";
import type { SmsLogAction } from "../constants";
import { SmsLog } from "./models/index";

/** One step of a message: its action, its name within the message (part of its key), its details. */
export type SmsLogStep = [action: SmsLogAction, step: string, details: Record<string, unknown>];

/** Who and what the steps belong to. */
export interface SmsLogSubject {
  /** The gateway's id of the inbound message (or the id an alert or a code is keyed by), as the logs show it. */
  messageId: string;
  /** What the rows are keyed by: the inbound message's key (smsMessageKey); the message id when absent. */
  key?: string;
  userId: string | Types.ObjectId | null;
  userName: string;
  phone: string;
}

/** Writes a message's steps in one round-trip, each at most once (a retry leaves written ones as they are). */
export async function logSmsSteps(subject: SmsLogSubject, steps: SmsLogStep[]): Promise<void> {
  const userId = typeof subject.userId === "string" ? new Types.ObjectId(subject.userId) : subject.userId;
  await SmsLog.bulkWrite(
    steps.map(([action, step, details]) => ({
      updateOne: {
        filter: { key: `${subject.key ?? subject.messageId}:${step}` },
        update: {
          $setOnInsert: {
            action,
            user_id: userId,
            user_name: subject.userName,
            phone: subject.phone,
            message_id: subject.messageId,
            details: JSON.stringify(details),
          },
        },
        upsert: true,
      },
    })),
    { ordered: true },
  );
}

/** Whether the message's outcome ("processed" step) is logged: it was handled to the end. `key`: as given to logSmsSteps. */
export async function smsMessageDone(key: string): Promise<boolean> {
  return Boolean(await SmsLog.exists({ key: `${key}:processed` }));
}

/**
 * Writes the webhook_error row of one address and window (`key`), or updates its details when
 * the window's first failure already wrote it.
 */
export async function logWebhookError(key: string, details: Record<string, unknown>): Promise<void> {
  const write = () =>
    SmsLog.updateOne(
      { key },
      { $set: { details: JSON.stringify(details) }, $setOnInsert: { action: "webhook_error", phone: "", user_name: "", key } },
      { upsert: true },
    );
  try {
    await write();
  } catch (error) {
    // Two processes inserting the window's row at once: the loser updates the winner's row.
    if ((error as { code?: number }).code !== 11000) throw error;
    await write();
  }
}
