/**
 * Proving a phone number: a one-time code sent to it (through the configured SMS gateway, or the
 * log when none is configured, as a development mailer would), typed back by its owner. Until an
 * account has proven its number nothing from or to the SMS gateway is tied to it; a proven owner
 * takes the number back from an account that never proved it.
 *
 * A code lives in Redis (`phone-code:<E.164>`) as an HMAC of the number and the code under the
 * session secret, with its expiry and wrong tries: one code per number (a new one replaces the
 * old), burned by PHONE_CODE_MAX_ATTEMPTS wrong tries, used once (the deleting read wins).
 */
import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { Redis } from "ioredis";
import { Types } from "mongoose";
import {
  canonicalPhone,
  MESSAGES,
  possiblePhone,
  phoneLookupForms,
  type Language,
  type PhoneStatus,
  type SmsCodeJob,
} from "@storefront/shared";
import {
  loadSmsIntegrationConfig,
  publishCacheChange,
  SmsGatewayConfig,
  User,
  type Config,
  type Logger,
  type Queues,
} from "@storefront/shared/server";
import { AppError, badRequest, rateLimited } from "../errors";
import { count, refund } from "../middleware/rate-limit";

export interface PhoneProofDeps {
  redis: Redis;
  config: Config;
  queues: Queues;
  log: Logger;
}

/** The number an account signs in with and shows, and how far it is proven. */
export function accountPhone(row: { phone?: string | null; phoneVerifiedAt?: Date | null; releasedPhone?: string | null }): {
  phone: string;
  phoneStatus: PhoneStatus;
} {
  if (!row.phone) return { phone: row.releasedPhone ?? "", phoneStatus: "released" };
  return { phone: row.phone, phoneStatus: row.phoneVerifiedAt ? "proven" : "unproven" };
}

/** The projection accountPhone needs. */
export const ACCOUNT_PHONE_FIELDS = { phone: 1, phoneVerifiedAt: 1, releasedPhone: 1 } as const;

const codeKey = (phone: string) => `phone-code:${phone}`;
const phoneTaken = () => new AppError(409, "phone_taken", MESSAGES.phoneTaken);
const codeError = (
  code: "phone_code_invalid" | "phone_code_expired" | "phone_code_attempts" | "phone_code_missing",
  text: string,
) => new AppError(400, code, text, { field: "code" });

function digest(secret: string, phone: string, code: string): Buffer {
  return createHmac("sha256", secret).update(`${phone}:${code}`).digest();
}

interface Holder {
  _id: Types.ObjectId;
  phone: string;
  phoneVerifiedAt?: Date | null;
}

const HOLDER_FIELDS = { _id: 1, phone: 1, phoneVerifiedAt: 1 } as const;
const holderOf = (phone: string) => User.findOne({ phone }, HOLDER_FIELDS).lean<Holder>();

/** Whether a code goes out by SMS: an HTTP gateway in the SMS integration, or a sending (MT) SMPP gateway. */
async function gatewayConfigured(): Promise<boolean> {
  const [integration, smpp] = await Promise.all([loadSmsIntegrationConfig(), SmsGatewayConfig.exists({ smsType: "MT" })]);
  return Boolean(integration.gateway_url) || Boolean(smpp);
}

/**
 * Sends a code to `input.phone`, or to the signed-in account's own number. Refused with SPEC's 409
 * when another account has proven the number (signup says the same, so this tells nothing more),
 * with a 429 and Retry-After before PHONE_CODE_RESEND_SECONDS have passed since the last code to
 * the number, and past the per-address, per-number and overall hourly budgets (each code is an SMS
 * we pay for; SMS pumping sends them to premium numbers).
 */
export async function sendPhoneCode(
  deps: PhoneProofDeps,
  input: { phone?: string | undefined; userId?: string | undefined; ip: string; language: Language },
): Promise<{ success: true; phone: string; resendIn: number; expiresIn: number }> {
  const { redis, config } = deps;
  let phone: string;
  if (input.phone) {
    // A code goes only to a number that can exist: "+digits" of no country would be SMS spent for nothing.
    const possible = possiblePhone(input.phone, config.DEFAULT_PHONE_COUNTRY);
    if (!possible) throw badRequest(MESSAGES.phoneImpossible, "phone");
    phone = possible;
  } else {
    const own = input.userId ? await User.findById(input.userId, ACCOUNT_PHONE_FIELDS).lean() : null;
    if (!own?.phone) throw badRequest(MESSAGES.phoneNeeded, "phone");
    phone = own.phone;
  }
  const holder = await holderOf(phone);
  if (holder?.phoneVerifiedAt) {
    if (String(holder._id) === input.userId) throw badRequest(MESSAGES.phoneAlreadyProven, "phone");
    throw phoneTaken();
  }

  const key = codeKey(phone);
  const sentAt = Number(await redis.hget(key, "sent"));
  const wait = Math.ceil((sentAt + config.PHONE_CODE_RESEND_SECONDS * 1000 - Date.now()) / 1000);
  if (sentAt && wait > 0) throw rateLimited(MESSAGES.tooManyPhoneCodes, wait, "too_many_codes");
  const budgets: [string, number][] = [
    [`phone-code:ip:${input.ip}`, config.PHONE_CODES_PER_IP_PER_HOUR],
    [`phone-code:number:${phone}`, config.PHONE_CODES_PER_NUMBER_PER_HOUR],
    ["phone-code:all", config.PHONE_CODES_PER_HOUR],
  ];
  for (const [budget, limit] of budgets) {
    const counted = await count(redis, budget, limit, 3600);
    if (!counted.allowed) throw rateLimited(MESSAGES.tooManyPhoneCodes, counted.retryAfter, "too_many_codes");
  }

  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const ttl = config.PHONE_CODE_TTL_MINUTES * 60;
  const now = Date.now();
  await redis
    .multi()
    .del(key)
    .hset(key, { h: digest(config.SESSION_SECRET, phone, code).toString("hex"), sent: now, exp: now + ttl * 1000, tries: 0 })
    .expire(key, ttl)
    .exec();

  if (await gatewayConfigured()) {
    const job: SmsCodeJob = {
      type: "phone_code",
      codeId: randomUUID(),
      phone,
      code,
      minutes: config.PHONE_CODE_TTL_MINUTES,
      language: input.language,
    };
    // The code is in the job only: removed once sent, or once it has failed for good.
    await deps.queues["sms-reply"].add("sms-reply", job, {
      jobId: `phone-code-${job.codeId}`,
      attempts: 3,
      backoff: { type: "exponential", delay: 1000 },
      removeOnComplete: true,
      removeOnFail: true,
    });
  } else {
    deps.log.info({ phone, code, minutes: config.PHONE_CODE_TTL_MINUTES }, "phone code (no SMS gateway is configured: not sent)");
  }
  return { success: true, phone, resendIn: config.PHONE_CODE_RESEND_SECONDS, expiresIn: ttl };
}

// Reads the code's record and counts this try in one step; nothing for a number without a code
// (a try must not create a record that never expires).
const TRY_SCRIPT = `
if redis.call('exists', KEYS[1]) == 0 then return false end
local tries = redis.call('hincrby', KEYS[1], 'tries', 1)
return {tries, redis.call('hget', KEYS[1], 'h'), redis.call('hget', KEYS[1], 'exp')}`;

/** Checks `code` for `phone` and uses it up, or throws a 400 naming `code`. */
async function useCode(deps: Pick<PhoneProofDeps, "redis" | "config">, phone: string, code: string): Promise<void> {
  const key = codeKey(phone);
  const found = (await deps.redis.eval(TRY_SCRIPT, 1, key)) as [number, string, string] | null;
  if (!found) throw codeError("phone_code_missing", MESSAGES.phoneCodeMissing);
  const [tries, stored, expires] = found;
  if (Number(expires) <= Date.now()) {
    await deps.redis.del(key);
    throw codeError("phone_code_expired", MESSAGES.phoneCodeExpired);
  }
  if (tries > deps.config.PHONE_CODE_MAX_ATTEMPTS) {
    await deps.redis.del(key);
    throw codeError("phone_code_attempts", MESSAGES.phoneCodeAttempts);
  }
  const expected = Buffer.from(stored, "hex");
  const given = digest(deps.config.SESSION_SECRET, phone, code);
  const right = expected.length === given.length && timingSafeEqual(expected, given);
  // Single use: of two tries with the right code at once, only the one that deletes it proves.
  if (!right || (await deps.redis.del(key)) !== 1) {
    if (tries < deps.config.PHONE_CODE_MAX_ATTEMPTS) throw codeError("phone_code_invalid", MESSAGES.phoneCodeInvalid);
    await deps.redis.del(key);
    throw codeError("phone_code_attempts", MESSAGES.phoneCodeAttempts);
  }
}

/**
 * Takes `phone` from the account that holds it without having proven it (that account keeps its
 * coins and history, signs in with the number as before, and must prove another one). Refused
 * with SPEC's 409 when the holder proved it.
 */
async function takeBack(from: Holder, log: Logger): Promise<void> {
  if (from.phoneVerifiedAt) throw phoneTaken();
  const phone = from.phone;
  const released = await User.updateOne(
    { _id: from._id, phone, phoneVerifiedAt: null },
    { $unset: { phone: 1 }, $set: { releasedPhone: phone } },
  );
  // Proven meanwhile (it won the race for the number): the number is theirs.
  if (released.modifiedCount !== 1) throw phoneTaken();
  await publishCacheChange("user", String(from._id));
  log.info({ userId: String(from._id), phone }, "phone number taken back by its proven owner");
}

/** Proves `phone` for the signed-in account: its number from now on, taken back from an unproven holder. */
export async function provePhone(
  deps: PhoneProofDeps,
  input: { userId: string; phone?: string | undefined; code: string; ip: string },
): Promise<{ id: string; phone: string; phoneStatus: PhoneStatus }> {
  const own = await User.findById(input.userId, { ...ACCOUNT_PHONE_FIELDS, createdAt: 1 }).lean<{
    phone?: string;
    phoneVerifiedAt?: Date | null;
    createdAt: Date;
  }>();
  if (!own) throw badRequest(MESSAGES.notAuthenticated);
  const phone = input.phone ? canonicalPhone(input.phone, deps.config.DEFAULT_PHONE_COUNTRY) : own.phone;
  if (!phone) throw badRequest(MESSAGES.phoneNeeded, "phone");
  if (phone === own.phone && own.phoneVerifiedAt) throw badRequest(MESSAGES.phoneAlreadyProven, "phone");
  await useCode(deps, phone, input.code);

  const holder = await holderOf(phone);
  if (holder && String(holder._id) !== input.userId) await takeBack(holder, deps.log);
  try {
    await User.updateOne({ _id: input.userId }, { $set: { phone, phoneVerifiedAt: new Date() }, $unset: { releasedPhone: 1 } });
  } catch (error) {
    if ((error as { code?: number }).code === 11000) throw phoneTaken();
    throw error;
  }
  await publishCacheChange("user", input.userId);
  // A signup proven within the hour gives its place in the per-address signup budget back.
  if (Date.now() - own.createdAt.getTime() < 3600_000) {
    await refund(deps.redis, `signup:ip:${input.ip}`, deps.config.SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR, 3600);
  }
  return { id: input.userId, phone, phoneStatus: "proven" };
}

/**
 * For a signup that brings a code: checks it (a 400 naming `code` when wrong) and takes the number
 * back from an unproven holder, so the new account can be created with it, proven. 409 when the
 * holder proved it.
 */
export async function claimForSignup(deps: PhoneProofDeps, phone: string, code: string): Promise<void> {
  const forms = phoneLookupForms(phone, deps.config.DEFAULT_PHONE_COUNTRY);
  const canonical = canonicalPhone(phone, deps.config.DEFAULT_PHONE_COUNTRY);
  // Refused before the code is spent: the number is someone's, proven.
  if (await User.exists({ phone: { $in: forms }, phoneVerifiedAt: { $ne: null } })) throw phoneTaken();
  await useCode(deps, canonical, code);
  const holders = await User.find({ phone: { $in: forms } }, HOLDER_FIELDS)
    .limit(forms.length)
    .lean<Holder[]>();
  for (const holder of holders) await takeBack(holder, deps.log);
}
