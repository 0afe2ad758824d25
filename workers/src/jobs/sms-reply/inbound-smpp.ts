/**
 * Subscribers' messages that arrive over SMPP (deliver_sm on the gateway's bind; for Jasmin, its
 * MO route to an SMPP user): the same sms-reply job as a webhook call makes, so the same pipeline
 * answers them (opt-out keywords, charges, replies).
 *
 * SMPP gives an MO no id of its own. A gateway repeats a deliver_sm whose deliver_sm_resp it did
 * not get, within its response timeout: the same sender, recipient and text from the same SMSC
 * within DUPLICATE_WINDOW_SECONDS is taken as that repetition and accepted once (docs/decisions.md).
 * The parts of a concatenated message are kept in Redis until the last one arrives (any worker
 * process may get any part) and go on as one message.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { SmsReplyJob } from "@storefront/shared";
import { smsJobId, smsJobOptions, smsMessageKey } from "@storefront/shared/server";
import type { InboundSm } from "../../gateways/smpp";

/** How long an identical deliver_sm counts as the gateway's repetition of the first. */
const SMPP_DUPLICATE_WINDOW_SECONDS = 120;
/** How long the parts of a concatenated message wait for the rest. */
const PARTS_TTL_SECONDS = 600;

const hash = (...values: (string | number)[]) => createHash("sha256").update(values.join("\u0000")).digest("hex");

/** The whole text once every part is in, else null (the parts so far are kept). */
async function joinParts(redis: Redis, message: InboundSm): Promise<string | null> {
  const part = message.part!;
  const key = `sms:smpp:parts:${hash(message.smsc, message.from, message.to, part.ref, part.total)}`;
  const [, , parts] = (await redis
    .multi()
    .hset(key, String(part.seq), message.text)
    .expire(key, PARTS_TTL_SECONDS)
    .hgetall(key)
    .exec()
    .then((results) => results?.map(([error, value]) => (error ? null : value)) ?? [])) as [
    unknown,
    unknown,
    Record<string, string> | null,
  ];
  if (!parts || Object.keys(parts).length < part.total) return null;
  await redis.del(key);
  return Array.from({ length: part.total }, (_, i) => parts[String(i + 1)] ?? "").join("");
}

/** Queues a message that came over SMPP; "duplicate" for a repetition, "partial" for a part still waiting for the rest. */
export async function acceptSmppInbound(
  redis: Redis,
  queue: Queue,
  message: InboundSm,
): Promise<"queued" | "duplicate" | "partial"> {
  const text = message.part ? await joinParts(redis, message) : message.text;
  if (text === null) return "partial";
  const seenKey = `sms:smpp:seen:${hash(message.smsc, message.from, message.to, text)}`;
  const first = await redis.set(seenKey, "1", "EX", SMPP_DUPLICATE_WINDOW_SECONDS, "NX");
  if (first !== "OK") return "duplicate";
  const messageId = `smpp-${randomUUID()}`;
  const key = smsMessageKey({ source: `smpp:${message.smsc}`, from: message.from, to: message.to, messageId });
  const job: SmsReplyJob = { messageId, key, from: message.from, to: message.to, text, receivedAt: Date.now(), channel: "smpp" };
  try {
    await queue.add("inbound", job, smsJobOptions(smsJobId(key)));
  } catch (error) {
    // Not queued: the gateway is told to deliver it again, and that delivery must not be a duplicate.
    await redis.del(seenKey).catch(() => undefined);
    throw error;
  }
  return "queued";
}
