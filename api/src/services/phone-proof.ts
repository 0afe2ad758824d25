/**
 * Proving a phone number: a one-time code sent to it (through the configured SMS gateway, or the
 * log when none is configured, as a development mailer would), typed back by its owner. Until an
 * account has proven its number nothing from or to the SMS gateway is tied to it; a proven owner
 * takes the number back from an account that never proved it.
 *
 * A code lives in Redis (`phone-code:<E.164>:<holder>`) as an HMAC of the number and the code under
 * the session secret, with its id, expiry and wrong tries. It is bound to whoever asked for it (an
 * account, or a signed-out visitor's session): one code per number and holder (their new one
 * replaces their old), typed only by that holder, burned by PHONE_CODE_MAX_ATTEMPTS wrong tries,
 * used once (the deleting read wins). A stranger's requests and tries never touch the owner's code
 * or own budgets; only the number's ceilings are everyone's (wrong tries, codes sent: guessing and
 * SMS to one victim stay bounded whatever the askers), docs/security.md "Phone proof against strangers".
 */
import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { Request } from "express";
import type { Redis } from "ioredis";
import { Types } from "mongoose";
import {
  canonicalPhone,
  MESSAGES,
  phoneCountryOf,
  possiblePhone,
  phoneLookupForms,
  type Language,
  type PhoneStatus,
  type SmsCodeJob,
} from "@storefront/shared";
import {
  loadSmsIntegrationConfig,
  publishCacheChange,
  phoneCodeCeilings,
  SmsGatewayConfig,
  User,
  type Config,
  type Logger,
  type Queues,
} from "@storefront/shared/server";
import { AppError, badRequest, rateLimited } from "../errors";
import { clientKey, count, exhausted, refund } from "../middleware/rate-limit";

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

/**
 * Who asked for a code, and so who may type it: a signed-in account, or a signed-out visitor (for
 * a signup that proves its number) known by an id kept in its session, made when its first code is
 * sent. The client address counts toward the per-address budgets, and stands for a visitor in the
 * per-number budget (a visitor id costs nothing to make; an address does).
 */
export interface CodeRequester {
  userId?: string | undefined;
  /** The visitor id in the session; `create` makes one when there is none. */
  visitor(create: boolean): string | undefined;
  /** The client address as per-address budgets count it (an IPv6 one by its /64: clientKey). */
  ip: string;
}

/** The requester of an HTTP call: its account when signed in, and its session's visitor id. */
export function codeRequester(req: Request): CodeRequester {
  return {
    userId: req.session?.userId,
    visitor: (create) => {
      if (create && req.session && !req.session.phoneCodeVisitor) req.session.phoneCodeVisitor = randomUUID();
      return req.session?.phoneCodeVisitor;
    },
    ip: clientKey(req.ip),
  };
}

/** The holders a requester's codes are kept under, the account's first. */
function holdersOf(requester: CodeRequester, create = false): string[] {
  const visitor = requester.visitor(create && !requester.userId);
  return [...(requester.userId ? [`user:${requester.userId}`] : []), ...(visitor ? [`visitor:${visitor}`] : [])];
}

/** One code per number and holder: a code asked for by someone else never replaces it or counts its tries. */
const codeKey = (phone: string, holder: string) => `phone-code:${phone}:${holder}`;

/** Whether the signed-out visitor `visitor` holds a code for `phone` (login carries only such a visitor id). */
export async function hasVisitorCode(redis: Redis, phone: string, visitor: string): Promise<boolean> {
  return (await redis.exists(codeKey(phone, `visitor:${visitor}`))) === 1;
}
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

/** A budget: `limit` hits of `key` per `window` seconds; `ceiling` names one an operator is alerted on. */
interface Budget {
  key: string;
  limit: number;
  window?: number;
  ceiling?: "codes_to_number" | "codes_per_country" | "codes_in_all" | "wrong_tries_for_number";
}

/** The budget that refused, and when it has room again. */
interface Refusal {
  budget: Budget;
  retryAfter: number;
}

/**
 * Counts one hit of every budget, or of none: each is checked before any is counted (a refusal by
 * one must not spend the others, or an owner retrying during an attack stays locked out after the
 * window that refused ends), and a hit one loses in a race is given back to all.
 */
async function spendAll(redis: Redis, budgets: Budget[]): Promise<Refusal | null> {
  for (const budget of budgets) {
    const over = await exhausted(redis, budget.key, budget.limit, budget.window ?? 3600);
    if (over) return { budget, retryAfter: over.retryAfter };
  }
  const counted: Budget[] = [];
  for (const budget of budgets) {
    const hit = await count(redis, budget.key, budget.limit, budget.window ?? 3600);
    counted.push(budget);
    if (!hit.allowed) {
      for (const back of counted) await refund(redis, back.key, back.limit, back.window ?? 3600);
      return { budget, retryAfter: hit.retryAfter };
    }
  }
  return null;
}

/** The 429 of a refusal; a ceiling that trips is logged as a warning and counted in a metric to alert on. */
function refused(deps: Pick<PhoneProofDeps, "log">, refusal: Refusal, phone: string, error: AppError): AppError {
  const { ceiling } = refusal.budget;
  if (ceiling) {
    phoneCodeCeilings.inc({ ceiling });
    deps.log.warn(
      { ceiling, phone, limit: refusal.budget.limit, retryAfter: refusal.retryAfter },
      "phone code ceiling reached: codes or tries refused for everyone (an attack on one number, or SMS pumping?)",
    );
  }
  return error;
}

/** A 400 naming `phone` unless PHONE_CODE_COUNTRIES lists the number's country. */
function checkCountry(config: Config, phone: string): void {
  const allowed = config.PHONE_CODE_COUNTRIES;
  if (allowed === "*") return;
  const country = phoneCountryOf(phone);
  if (!country || !allowed.includes(country))
    throw new AppError(400, "phone_country", MESSAGES.phoneCountryRefused, { field: "phone" });
}

/** The window of the per-country and per-number daily budgets (24 hours from their first hit). */
const DAY = 86_400;

/**
 * Sends a code to `input.phone`, or to the signed-in account's own number, bound to the requester:
 * only they can type it, and their tries burn only it. Before anything about the number is looked
 * at, the requester's wait since its last code to the number (PHONE_CODE_RESEND_SECONDS) and the
 * budgets are spent, all or none: per address (not for an account's own number: a carrier NAT must
 * not lock owners out), per number and requester (account, or address when signed out), per number
 * by everyone (the SMS one victim can get), per destination country a day, and overall (each code is
 * an SMS we pay for; visitors and other numbers stop PHONE_CODES_OWN_RESERVE_PER_HOUR short of it).
 * A number another account proved gets its code like any other: whether it is proven is told
 * (SPEC's 409) only to whoever types the code sent to it, its owner.
 */
export async function sendPhoneCode(
  deps: PhoneProofDeps,
  input: { phone?: string | undefined; requester: CodeRequester; language: Language },
): Promise<{ success: true; phone: string; resendIn: number; expiresIn: number }> {
  const { redis, config } = deps;
  const { requester } = input;
  const own = requester.userId ? await User.findById(requester.userId, ACCOUNT_PHONE_FIELDS).lean() : null;
  let phone: string;
  if (input.phone) {
    // A code goes only to a number that can exist: "+digits" of no country would be SMS spent for nothing.
    const possible = possiblePhone(input.phone, config.DEFAULT_PHONE_COUNTRY);
    if (!possible) throw badRequest(MESSAGES.phoneImpossible, "phone");
    phone = possible;
  } else {
    if (!own?.phone) throw badRequest(MESSAGES.phoneNeeded, "phone");
    phone = own.phone;
  }
  // The account's own state, told only to it.
  if (own?.phone === phone && own.phoneVerifiedAt) throw badRequest(MESSAGES.phoneAlreadyProven, "phone");
  checkCountry(config, phone);

  for (const holder of holdersOf(requester)) {
    const sentAt = Number(await redis.hget(codeKey(phone, holder), "sent"));
    const wait = Math.ceil((sentAt + config.PHONE_CODE_RESEND_SECONDS * 1000 - Date.now()) / 1000);
    if (sentAt && wait > 0) throw rateLimited(MESSAGES.tooManyPhoneCodes, wait, "too_many_codes");
  }
  const pool = requester.userId ? `user:${requester.userId}` : `ip:${requester.ip}`;
  const ownNumber = Boolean(own && own.phone === phone);
  const refusal = await spendAll(redis, [
    ...(ownNumber ? [] : [{ key: `phone-code:ip:${requester.ip}`, limit: config.PHONE_CODES_PER_IP_PER_HOUR }]),
    { key: `phone-code:number:${phone}:${pool}`, limit: config.PHONE_CODES_PER_NUMBER_PER_HOUR },
    { key: `phone-code:to:${phone}`, limit: config.PHONE_CODES_TO_NUMBER_PER_HOUR, ceiling: "codes_to_number" },
    {
      key: `phone-code:country:${phoneCountryOf(phone) ?? "other"}`,
      limit: config.PHONE_CODES_PER_COUNTRY_PER_DAY,
      window: DAY,
      ceiling: "codes_per_country",
    },
    {
      key: "phone-code:all",
      limit: ownNumber ? config.PHONE_CODES_PER_HOUR : config.PHONE_CODES_PER_HOUR - config.PHONE_CODES_OWN_RESERVE_PER_HOUR,
      ceiling: "codes_in_all",
    },
  ]);
  if (refusal) throw refused(deps, refusal, phone, rateLimited(MESSAGES.tooManyPhoneCodes, refusal.retryAfter, "too_many_codes"));

  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const codeId = randomUUID();
  const ttl = config.PHONE_CODE_TTL_MINUTES * 60;
  const now = Date.now();
  const key = codeKey(phone, holdersOf(requester, true)[0]!);
  await redis
    .multi()
    .del(key)
    .hset(key, {
      id: codeId,
      h: digest(config.SESSION_SECRET, phone, code).toString("hex"),
      sent: now,
      exp: now + ttl * 1000,
      tries: 0,
    })
    .expire(key, ttl)
    .exec();

  if (await gatewayConfigured()) {
    const job: SmsCodeJob = {
      type: "phone_code",
      codeId,
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

// Counts a try of the code record, read in the same step; nothing when it is gone (a try must not
// create a record that never expires).
const TRY_SCRIPT = `
if redis.call('exists', KEYS[1]) == 0 then return false end
local tries = redis.call('hincrby', KEYS[1], 'tries', 1)
return {tries, redis.call('hget', KEYS[1], 'h'), redis.call('hget', KEYS[1], 'exp')}`;

/** When the number's wrong-try ceiling last tripped: codes sent before it keep one way through for the number's account. */
const lockedKey = (phone: string) => `phone-code:locked:${phone}`;

/**
 * Checks `code` against the code sent to `phone` for this requester and uses it up, or throws a
 * 400 naming `code`. Each try is counted first, against the address's budget and the budget of the
 * holder whose code it tries (a planted visitor id in the session spends nothing of the account's),
 * then against the number's wrong-try ceilings (by everyone, per hour and per day: guessing one
 * number is bounded however many askers there are), then against the code's own wrong tries; a 429
 * comes before anything about the number is told. Past a number's ceiling only the account holding
 * the number may still type the code it was sent before the ceiling tripped (its own 5 tries).
 */
async function useCode(
  deps: Pick<PhoneProofDeps, "redis" | "config" | "log">,
  phone: string,
  code: string,
  requester: CodeRequester,
  ownNumber: boolean,
): Promise<void> {
  const { redis, config } = deps;
  const holders = holdersOf(requester);
  let found: { key: string; holder: string; sent: number } | undefined;
  for (const holder of holders) {
    const sent = await redis.hget(codeKey(phone, holder), "sent");
    if (sent !== null) {
      found = { key: codeKey(phone, holder), holder, sent: Number(sent) };
      break;
    }
  }
  const holder = found?.holder ?? holders[0];
  const tooMany = (refusal: Refusal) => rateLimited(MESSAGES.tooManyPhoneCodeTries, refusal.retryAfter, "too_many_code_tries");
  const own = await spendAll(redis, [
    { key: `phone-code-try:ip:${requester.ip}`, limit: config.PHONE_CODE_TRIES_PER_IP_PER_HOUR },
    ...(holder ? [{ key: `phone-code-try:${holder}`, limit: config.PHONE_CODE_TRIES_PER_HOUR }] : []),
  ]);
  if (own) throw tooMany(own);
  if (!found) throw codeError("phone_code_missing", MESSAGES.phoneCodeMissing);

  // Counted before the comparison (so concurrent guesses cannot pass the ceiling), given back when right.
  const numberBudgets: Budget[] = [
    {
      key: `phone-code-wrong:${phone}:hour`,
      limit: config.PHONE_CODE_WRONG_TRIES_PER_NUMBER_PER_HOUR,
      ceiling: "wrong_tries_for_number",
    },
    {
      key: `phone-code-wrong:${phone}:day`,
      limit: config.PHONE_CODE_WRONG_TRIES_PER_NUMBER_PER_DAY,
      window: DAY,
      ceiling: "wrong_tries_for_number",
    },
  ];
  const ceiling = await spendAll(redis, numberBudgets);
  if (ceiling) {
    await redis.set(lockedKey(phone), Date.now(), "EX", ceiling.retryAfter, "NX");
    const lockedAt = Number(await redis.get(lockedKey(phone)));
    const wayThrough = ownNumber && found.holder.startsWith("user:") && lockedAt > 0 && found.sent < lockedAt;
    if (!wayThrough)
      throw refused(deps, ceiling, phone, rateLimited(MESSAGES.tooManyNumberTries, ceiling.retryAfter, "too_many_number_tries"));
  }
  const giveBack = async () => {
    if (ceiling) return;
    for (const budget of numberBudgets) await refund(redis, budget.key, budget.limit, budget.window ?? 3600);
  };

  const tried = (await redis.eval(TRY_SCRIPT, 1, found.key)) as [number, string, string] | null;
  if (!tried) {
    await giveBack();
    throw codeError("phone_code_missing", MESSAGES.phoneCodeMissing);
  }
  const [tries, stored, expires] = tried;
  if (Number(expires) <= Date.now()) {
    await giveBack();
    await redis.del(found.key);
    throw codeError("phone_code_expired", MESSAGES.phoneCodeExpired);
  }
  if (tries > config.PHONE_CODE_MAX_ATTEMPTS) {
    await giveBack();
    await redis.del(found.key);
    throw codeError("phone_code_attempts", MESSAGES.phoneCodeAttempts);
  }
  const expected = Buffer.from(stored, "hex");
  const given = digest(config.SESSION_SECRET, phone, code);
  const right = expected.length === given.length && timingSafeEqual(expected, given);
  if (right) await giveBack();
  // Single use: of two tries with the right code at once, only the one that deletes it proves.
  if (!right || (await redis.del(found.key)) !== 1) {
    if (tries < config.PHONE_CODE_MAX_ATTEMPTS) throw codeError("phone_code_invalid", MESSAGES.phoneCodeInvalid);
    await redis.del(found.key);
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
  input: { userId: string; phone?: string | undefined; code: string; requester: CodeRequester },
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
  await useCode(deps, phone, input.code, input.requester, phone === own.phone);

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
    await refund(deps.redis, `signup:ip:${input.requester.ip}`, deps.config.SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR, 3600);
  }
  return { id: input.userId, phone, phoneStatus: "proven" };
}

/**
 * For a signup that brings a code: checks it (a 400 naming `code` when wrong, before anything about
 * the number is told) and takes the number back from an unproven holder, so the new account can be
 * created with it, proven. 409 when the holder proved it: said only to whoever has its code.
 */
export async function claimForSignup(deps: PhoneProofDeps, phone: string, code: string, requester: CodeRequester): Promise<void> {
  const forms = phoneLookupForms(phone, deps.config.DEFAULT_PHONE_COUNTRY);
  const canonical = canonicalPhone(phone, deps.config.DEFAULT_PHONE_COUNTRY);
  await useCode(deps, canonical, code, requester, false);
  if (await User.exists({ phone: { $in: forms }, phoneVerifiedAt: { $ne: null } })) throw phoneTaken();
  const holders = await User.find({ phone: { $in: forms } }, HOLDER_FIELDS)
    .limit(forms.length)
    .lean<Holder[]>();
  for (const holder of holders) await takeBack(holder, deps.log);
}
