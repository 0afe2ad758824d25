/**
 * Proving a phone number by a one-time code, on an API process and a database of their own with no
 * SMS gateway configured: the offline default, where the code is written to the API's log as a
 * development mailer would. (Codes through the configured gateway, and what proof ties to the SMS
 * pipeline, are in sms-integration.test.ts, beside its gateway peers.)
 */
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { User } from "@storefront/shared/server";
import { phoneCodesIn, startApiProcess, type ApiProcess } from "../support/api-process";
import { Client, uniquePhone, walletCoins } from "../support/client";
import { until } from "../support/realtime";

const DATABASE = inject("mongoUri").replace(/\/[^/?]*(\?|$)/u, "/storefront_phone_proof$1");
const ADMIN = { username: "phone-proof-admin", password: "phone-proof-admin-password-1" };
const LIMITS = {
  signups: 3,
  codesPerNumber: 3,
  codesPerAddress: 8,
  attempts: 3,
  triesPerAccount: 8,
  triesPerAddress: 12,
  codesToNumber: 8,
  codesPerCountry: 1000,
  wrongPerNumberHour: 8,
  wrongPerNumberDay: 12,
  // Below the run's shared API (1,000 less its 200 kept): filling this process's part of the shared count leaves the other files' room.
  codesInAll: 500,
  ownReserve: 200,
};
/** Every North American number plan country (the test numbers are +1), and Egypt: not the UK or Saudi Arabia. */
const CODE_COUNTRIES = "US,CA,AG,AI,AS,BB,BM,BS,DM,DO,GD,GU,JM,KN,KY,LC,MP,MS,PR,SX,TC,TT,VC,VG,VI,EG";
let api: ApiProcess;
let redis: Redis;
let addressCounter = 0;

/** A client address of its own (the process trusts one proxy), so limits of one test stay in it. */
function address(): Record<string, string> {
  addressCounter += 1;
  return { "x-forwarded-for": `10.77.${process.pid % 250}.${addressCounter}` };
}

/** The next code the API wrote to its log for a phone (no gateway is configured). */
const loggedCode = phoneCodesIn(() => api);

/** The code records of a number: one per account or visitor that asked for one. */
const codeRecords = (phone: string) => redis.keys(`phone-code:${phone}:*`);

/** Time passes for the number's codes: another may be sent at once (Redis holds when each was sent). */
async function resendAllowed(phone: string): Promise<void> {
  for (const key of await codeRecords(phone)) await redis.hset(key, "sent", 0);
}

async function signedUp(headers = address()): Promise<{ client: Client; phone: string; headers: Record<string, string> }> {
  const client = new Client(api.url);
  const phone = uniquePhone();
  expect((await client.post("/signup.php", { phone, password: "secret-pass" }, headers)).status).toBe(201);
  expect((await client.post("/login-session-fix.php", { phone, password: "secret-pass" }, headers)).status).toBe(200);
  return { client, phone, headers };
}

beforeAll(async () => {
  await mongoose.connect(DATABASE);
  await User.init(); // this process's own index build, finished before the database is dropped
  await mongoose.connection.dropDatabase();
  // A data set from before phone proof: the users' phone index unique over every account.
  await User.collection.createIndex({ phone: 1 }, { unique: true, name: "phone_1" });
  redis = new Redis(inject("redisUrl"));
  api = await startApiProcess({
    MONGODB_URI: DATABASE,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "info",
    TRUST_PROXY: "1",
    SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR: String(LIMITS.signups),
    PHONE_CODES_PER_NUMBER_PER_HOUR: String(LIMITS.codesPerNumber),
    PHONE_CODES_PER_IP_PER_HOUR: String(LIMITS.codesPerAddress),
    PHONE_CODE_MAX_ATTEMPTS: String(LIMITS.attempts),
    PHONE_CODE_TRIES_PER_HOUR: String(LIMITS.triesPerAccount),
    PHONE_CODE_TRIES_PER_IP_PER_HOUR: String(LIMITS.triesPerAddress),
    PHONE_CODE_COUNTRIES: CODE_COUNTRIES,
    PHONE_CODES_TO_NUMBER_PER_HOUR: String(LIMITS.codesToNumber),
    PHONE_CODES_PER_COUNTRY_PER_DAY: String(LIMITS.codesPerCountry),
    PHONE_CODE_WRONG_TRIES_PER_NUMBER_PER_HOUR: String(LIMITS.wrongPerNumberHour),
    PHONE_CODE_WRONG_TRIES_PER_NUMBER_PER_DAY: String(LIMITS.wrongPerNumberDay),
    PHONE_CODES_PER_HOUR: String(LIMITS.codesInAll),
    PHONE_CODES_OWN_RESERVE_PER_HOUR: String(LIMITS.ownReserve),
  });
});

afterAll(async () => {
  await api?.stop();
  await redis?.quit();
  await mongoose.connection.dropDatabase();
  await mongoose.disconnect();
});

describe("the data migration", () => {
  it("rebuilds the older phone index as sparse when a process starts, so accounts whose number was taken back can be many", async () => {
    const phoneIndex = (await User.collection.indexes()).find((index) => index.name === "phone_1");
    expect(phoneIndex).toMatchObject({ unique: true, sparse: true });
  });
});

describe("signing up and proving the number", () => {
  it("signs up as SPEC says, unproven, and proves the number with the code sent to it, once", async () => {
    const { client, phone, headers } = await signedUp();
    expect((await client.get("/session-check-simple.php")).body.user).toMatchObject({ phone, phoneStatus: "unproven" });

    const sent = await client.post("/auth/phone/code", {}, headers);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ success: true, phone, resendIn: 60, expiresIn: 600 });
    const code = await loggedCode(phone);
    // Stored as a keyed hash: the record does not hold the code.
    const records = await codeRecords(phone);
    expect(records).toHaveLength(1);
    const stored = await redis.hgetall(records[0]!);
    expect(stored.h).toMatch(/^[0-9a-f]{64}$/u);
    expect(JSON.stringify(stored)).not.toContain(code);

    const proven = await client.post("/auth/phone/verify", { code }, headers);
    expect(proven.status).toBe(200);
    expect(proven.body.user).toMatchObject({ phone, phoneStatus: "proven" });
    expect((await client.get("/session-check-simple.php")).body.user.phoneStatus).toBe("proven");
    expect((await User.findOne({ phone }, { phoneVerifiedAt: 1 }).lean())!.phoneVerifiedAt).toBeInstanceOf(Date);
    // Used up: the same code again proves nothing.
    const again = await client.post("/auth/phone/verify", { code }, headers);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("phone: this number is already proven on your account");
  });

  it("refuses a wrong code (400 naming code), burns the code after the allowed wrong tries, and an expired one", async () => {
    const { client, phone, headers } = await signedUp();
    expect((await client.post("/auth/phone/code", {}, headers)).status).toBe(200);
    const code = await loggedCode(phone);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 1; i < LIMITS.attempts; i++) {
      const refused = await client.post("/auth/phone/verify", { code: wrong }, headers);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "phone_code_invalid", field: "code" });
    }
    const last = await client.post("/auth/phone/verify", { code: wrong }, headers);
    expect(last.body).toMatchObject({ code: "phone_code_attempts", field: "code" });
    // Burned: the right code no longer works.
    const late = await client.post("/auth/phone/verify", { code }, headers);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: "phone_code_missing", field: "code" });

    await resendAllowed(phone);
    expect((await client.post("/auth/phone/code", {}, headers)).status).toBe(200);
    const fresh = await loggedCode(phone);
    for (const key of await codeRecords(phone)) await redis.hset(key, "exp", Date.now() - 1);
    const expired = await client.post("/auth/phone/verify", { code: fresh }, headers);
    expect(expired.body).toMatchObject({ code: "phone_code_expired", field: "code" });
    const garbage = await client.post("/auth/phone/verify", { code: "12ab56" }, headers);
    expect(garbage.status).toBe(400);
    expect(garbage.body.field).toBe("code");
    expect((await client.get("/session-check-simple.php")).body.user.phoneStatus).toBe("unproven");
  });

  it("says when another code may be asked for (Retry-After and the user's language), and limits codes per number", async () => {
    const { client, phone, headers } = await signedUp();
    expect((await client.post("/auth/phone/code", {}, headers)).status).toBe(200);
    const soon = await client.post("/auth/phone/code", {}, { ...headers, "accept-language": "ar" });
    expect(soon.status).toBe(429);
    expect(Number(soon.headers.get("retry-after"))).toBeGreaterThan(50);
    expect(soon.body.code).toBe("too_many_codes");
    expect(soon.body.error).toMatch(
      /^طُلبت رموز كثيرة جدًا لهذا الرقم أو من هذا العنوان\. يرجى المحاولة مرة أخرى خلال (\d+ ثانية|دقيقة واحدة)\.$/u,
    );
    const english = await client.post("/auth/phone/code", {}, headers);
    expect(english.body.error).toMatch(
      /^Too many codes were asked for this number or from this address\. Please try again in (\d+ seconds|1 minute)\.$/u,
    );

    for (let i = 1; i < LIMITS.codesPerNumber; i++) {
      await resendAllowed(phone);
      expect((await client.post("/auth/phone/code", {}, address())).status).toBe(200);
    }
    await resendAllowed(phone);
    const budget = await client.post("/auth/phone/code", {}, address());
    expect(budget.status).toBe(429);
    expect(Number(budget.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect(budget.body.error).toMatch(/Please try again in \d+ minutes\./u);
  });

  it("sends no code to a number that cannot exist (400 naming phone): no SMS spent on it", async () => {
    const { client, headers } = await signedUp();
    for (const phone of ["+015550001001", "+999123456789", "+1555"]) {
      const res = await client.post("/auth/phone/code", { phone }, headers);
      expect(res.status, phone).toBe(400);
      expect(res.body.field, phone).toBe("phone");
    }
  });
});

describe("strangers asking for and trying codes of someone else's number", () => {
  const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");

  it("never burn or replace the owner's code: each code is bound to whoever asked for it", async () => {
    const owner = await signedUp();
    expect((await owner.client.post("/auth/phone/code", {}, owner.headers)).status).toBe(200);
    const code = await loggedCode(owner.phone);

    // Another account asks for codes to the number and types wrong ones: it burns its own code only.
    const stranger = await signedUp();
    expect((await stranger.client.post("/auth/phone/code", { phone: owner.phone }, stranger.headers)).status).toBe(200);
    const strangers = await loggedCode(owner.phone);
    let last: Awaited<ReturnType<Client["post"]>> | undefined;
    for (let i = 0; i < LIMITS.attempts; i++)
      last = await stranger.client.post(
        "/auth/phone/verify",
        { phone: owner.phone, code: wrongFor(strangers) },
        stranger.headers,
      );
    expect(last!.body).toMatchObject({ code: "phone_code_attempts", field: "code" });
    // Nor is the owner's code theirs to type.
    const notTheirs = await stranger.client.post("/auth/phone/verify", { phone: owner.phone, code }, stranger.headers);
    expect(notTheirs.body).toMatchObject({ code: "phone_code_missing", field: "code" });
    // A signed-out visitor does the same through a signup that brings a code.
    const visitor = new Client(api.url);
    const visitorHeaders = address();
    expect((await visitor.post("/auth/phone/code", { phone: owner.phone }, visitorHeaders)).status).toBe(200);
    const visitors = await loggedCode(owner.phone);
    for (let i = 0; i < LIMITS.attempts; i++)
      await visitor.post(
        "/signup.php",
        { phone: owner.phone, password: "visitor-pass", code: wrongFor(visitors) },
        visitorHeaders,
      );
    expect(
      (await visitor.post("/signup.php", { phone: owner.phone, password: "visitor-pass", code }, visitorHeaders)).body,
    ).toMatchObject({ code: "phone_code_missing", field: "code" });

    const proven = await owner.client.post("/auth/phone/verify", { code }, owner.headers);
    expect(proven.status).toBe(200);
    expect(proven.body.user).toMatchObject({ phone: owner.phone, phoneStatus: "proven" });
  });

  it("never use up the owner's codes for the hour: each account, and each address signed out, has its own", async () => {
    const owner = await signedUp();
    const stranger = await signedUp();
    const visitors = address();
    for (let i = 0; i < LIMITS.codesPerNumber; i++) {
      await resendAllowed(owner.phone);
      expect((await stranger.client.post("/auth/phone/code", { phone: owner.phone }, stranger.headers)).status).toBe(200);
      await loggedCode(owner.phone);
      expect((await new Client(api.url).post("/auth/phone/code", { phone: owner.phone }, visitors)).status).toBe(200);
      await loggedCode(owner.phone);
    }
    await resendAllowed(owner.phone);
    const strangerRefused = await stranger.client.post("/auth/phone/code", { phone: owner.phone }, stranger.headers);
    expect(strangerRefused.status).toBe(429);
    expect(Number(strangerRefused.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect((await new Client(api.url).post("/auth/phone/code", { phone: owner.phone }, visitors)).status).toBe(429);

    expect((await owner.client.post("/auth/phone/code", {}, owner.headers)).status).toBe(200);
    const proven = await owner.client.post("/auth/phone/verify", { code: await loggedCode(owner.phone) }, owner.headers);
    expect(proven.body.user).toMatchObject({ phoneStatus: "proven" });
  });

  it("limits the tries of codes per account and per address over all codes, with Retry-After and the user's language", async () => {
    const { client, headers } = await signedUp();
    for (let i = 0; i < LIMITS.triesPerAccount; i++) {
      const phone = uniquePhone();
      const res = await client.post("/auth/phone/verify", { phone, code: "123456" }, i % 2 ? headers : address());
      expect(res.status, `try ${i + 1}`).toBe(400);
    }
    const refused = await client.post(
      "/auth/phone/verify",
      { phone: uniquePhone(), code: "123456" },
      { ...address(), "accept-language": "ar" },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("too_many_code_tries");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect(refused.body.error).toMatch(
      /^جُرّبت رموز كثيرة جدًا من هذا الحساب أو من هذا العنوان\. يرجى المحاولة مرة أخرى خلال \d+ دقيقة\.$/u,
    );

    // Signed out, one address: fresh sessions each time do not get fresh tries.
    const shared = address();
    for (let i = 0; i < LIMITS.triesPerAddress; i++) {
      const res = await new Client(api.url).post(
        "/signup.php",
        { phone: uniquePhone(), password: "secret-pass", code: "123456" },
        shared,
      );
      expect(res.status, `try ${i + 1}`).toBe(400);
    }
    const byAddress = await new Client(api.url).post(
      "/signup.php",
      { phone: uniquePhone(), password: "secret-pass", code: "123456" },
      shared,
    );
    expect(byAddress.status).toBe(429);
    expect(byAddress.body.code).toBe("too_many_code_tries");
    expect(byAddress.body.error).toMatch(/Please try again in \d+ minutes\.$/u);
  });
});

describe("ceilings on one number shared by everyone", () => {
  const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");
  /** Ends a limit's window at once, as time would (the counters are rate-limiter-flexible's, under "rl:"). */
  const windowEnds = (key: string) => redis.del(`rl:${key}`);
  /** The warning a ceiling that refused writes (it reaches the log a moment after the answer). */
  const ceilingLogged = (ceiling: string) =>
    until(() => api.output().includes(`"ceiling":"${ceiling}"`) || undefined, 10_000, `the ${ceiling} warning`);
  /**
   * Runs `body` with the shared count `key` (every API process of the run counts into it) raised to
   * at least `to`, then takes the raise back: the run's other processes have higher limits.
   */
  async function countRaised(key: string, to: number, body: () => Promise<void>): Promise<void> {
    await redis.set(`rl:${key}`, 0, "EX", 3600, "NX");
    const raise = Math.max(0, to - Number(await redis.get(`rl:${key}`)));
    await redis.incrby(`rl:${key}`, raise);
    try {
      await body();
    } finally {
      await redis.decrby(`rl:${key}`, raise);
    }
  }

  it("bound the wrong tries of one number by every asker together (per hour and per day): 429 with Retry-After, logged; the owner's earlier code still works", async () => {
    const owner = await signedUp();
    expect((await owner.client.post("/auth/phone/code", {}, owner.headers)).status).toBe(200);
    const ownersCode = await loggedCode(owner.phone);

    // Askers of their own (accounts and visitors, each from its own address) guess codes sent to the number.
    const guessers: { client: Client; headers: Record<string, string>; signup: boolean }[] = [];
    const guesser = async (signup: boolean) => {
      const g = signup ? await signedUp() : { client: new Client(api.url), headers: address() };
      expect((await g.client.post("/auth/phone/code", { phone: owner.phone }, g.headers)).status).toBe(200);
      const code = await loggedCode(owner.phone);
      guessers.push({ ...g, signup });
      return { ...g, signup, wrong: wrongFor(code) };
    };
    const guess = (g: Awaited<ReturnType<typeof guesser>>, headers: Record<string, string> = g.headers) =>
      g.signup
        ? g.client.post("/auth/phone/verify", { phone: owner.phone, code: g.wrong }, headers)
        : g.client.post("/signup.php", { phone: owner.phone, password: "guess-pass", code: g.wrong }, headers);
    let wrong = 0;
    let current = await guesser(true);
    let tries = 0;
    while (wrong < LIMITS.wrongPerNumberHour) {
      if (tries === LIMITS.attempts) {
        current = await guesser(guessers.length % 2 === 1);
        tries = 0;
      }
      expect((await guess(current)).status, `wrong try ${wrong + 1}`).toBe(400);
      tries += 1;
      wrong += 1;
    }
    // Past the ceiling a fresh asker's fresh code is refused too: no more guessing on this number this hour.
    const fresh = await guesser(false);
    const refused = await guess(fresh, { ...fresh.headers, "accept-language": "ar" });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("too_many_number_tries");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect(refused.body.error).toMatch(
      /^أُدخلت رموز خاطئة كثيرة جدًا لهذا الرقم، لذا أُوقف إثباته مؤقتًا\. يرجى المحاولة مرة أخرى خلال \d+ دقيقة\.$/u,
    );
    expect((await guess(fresh)).body.error).toMatch(
      /^Too many wrong codes were typed for this number, so proving it is paused\. Please try again in \d+ minutes\.$/u,
    );
    await ceilingLogged("wrong_tries_for_number");
    const warning = JSON.parse(
      api
        .output()
        .split("\n")
        .find((line) => line.includes('"ceiling":"wrong_tries_for_number"'))!,
    );
    expect(warning).toMatchObject({ level: 40, phone: owner.phone });

    // The number's own account may still type the code it was sent before the ceiling tripped; a code asked for now may not.
    const proven = await owner.client.post("/auth/phone/verify", { code: ownersCode }, owner.headers);
    expect(proven.status).toBe(200);
    expect(proven.body.user).toMatchObject({ phone: owner.phone, phoneStatus: "proven" });

    // A new hour: guessing goes on until the day's ceiling, which holds for the rest of the day.
    await windowEnds(`phone-code-wrong:${owner.phone}:hour`);
    await windowEnds(`phone-code:to:${owner.phone}`);
    await redis.del(`phone-code:locked:${owner.phone}`);
    for (; wrong < LIMITS.wrongPerNumberDay; wrong++) {
      const g = await guesser(true);
      expect((await guess(g)).status, `wrong try ${wrong + 1}`).toBe(400);
    }
    const day = await guess(await guesser(true));
    expect(day.status).toBe(429);
    expect(day.body.code).toBe("too_many_number_tries");
    expect(Number(day.headers.get("retry-after"))).toBeGreaterThan(80_000);
  });

  it("bound the codes sent to one number by every asker together per hour, and count nothing of a refused request", async () => {
    const phone = uniquePhone();
    for (let i = 0; i < LIMITS.codesToNumber; i++) {
      expect((await new Client(api.url).post("/auth/phone/code", { phone }, address())).status, `code ${i + 1}`).toBe(200);
      await loggedCode(phone);
    }
    const visitor = new Client(api.url);
    const headers = address();
    for (let i = 0; i < LIMITS.codesPerAddress + 2; i++) {
      const refused = await visitor.post("/auth/phone/code", { phone }, headers);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("too_many_codes");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    }
    await ceilingLogged("codes_to_number");
    // Its refused requests spent none of the address's own budget: other numbers still get codes from it.
    const other = uniquePhone();
    expect((await visitor.post("/auth/phone/code", { phone: other }, headers)).status).toBe(200);
    await loggedCode(other);
  });

  it("spend no budget of a request another budget refuses: a refused asker has its budgets whole when the window ends", async () => {
    const visitor = new Client(api.url);
    const headers = address();
    const phone = uniquePhone();
    for (let i = 0; i < LIMITS.codesPerNumber; i++) {
      await resendAllowed(phone);
      expect((await visitor.post("/auth/phone/code", { phone }, headers)).status).toBe(200);
      await loggedCode(phone);
    }
    // Refused by the number-and-asker budget again and again: the address's budget must not pay for it.
    for (let i = 0; i < LIMITS.codesPerAddress; i++) {
      await resendAllowed(phone);
      expect((await visitor.post("/auth/phone/code", { phone }, headers)).status).toBe(429);
    }
    for (let i = LIMITS.codesPerNumber; i < LIMITS.codesPerAddress; i++) {
      const other = uniquePhone();
      expect((await visitor.post("/auth/phone/code", { phone: other }, headers)).status, `code ${i + 1}`).toBe(200);
      await loggedCode(other);
    }
    expect((await visitor.post("/auth/phone/code", { phone: uniquePhone() }, headers)).status).toBe(429);
  });

  it("keep part of the hour's codes for signed-in accounts proving their own number, and the address budget does not apply to those", async () => {
    // A carrier address whose budget others behind it spent.
    const owner = await signedUp();
    for (let i = 0; i < LIMITS.codesPerAddress; i++) {
      const phone = uniquePhone();
      expect((await new Client(api.url).post("/auth/phone/code", { phone }, owner.headers)).status).toBe(200);
      await loggedCode(phone);
    }
    expect((await new Client(api.url).post("/auth/phone/code", { phone: uniquePhone() }, owner.headers)).status).toBe(429);
    // Visitors have used all the hour's codes but the reserve.
    await countRaised("phone-code:all", LIMITS.codesInAll - LIMITS.ownReserve, async () => {
      const visitor = await new Client(api.url).post("/auth/phone/code", { phone: uniquePhone() }, address());
      expect(visitor.status).toBe(429);
      expect(visitor.body.code).toBe("too_many_codes");
      const another = await signedUp();
      expect((await another.client.post("/auth/phone/code", { phone: uniquePhone() }, another.headers)).status).toBe(429);
      await ceilingLogged("codes_in_all");

      expect((await owner.client.post("/auth/phone/code", {}, owner.headers)).status).toBe(200);
      const proven = await owner.client.post("/auth/phone/verify", { code: await loggedCode(owner.phone) }, owner.headers);
      expect(proven.body.user).toMatchObject({ phoneStatus: "proven" });
    });
  });

  it("caps the codes to one destination country a day", async () => {
    await countRaised("phone-code:country:EG", LIMITS.codesPerCountry, async () => {
      const { client, headers } = await signedUp();
      const egypt = `+2010${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      const refused = await client.post("/auth/phone/code", { phone: egypt }, headers);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("too_many_codes");
      await ceilingLogged("codes_per_country");
      expect((await client.post("/auth/phone/code", { phone: uniquePhone() }, headers)).status).toBe(200);
    });
  });

  it("count a session's tries only against the holder whose code it types: a visitor id planted before login is not carried", async () => {
    // The attacker's session holds a visitor id (it asked for a code) whose tries it spends, then plants it in the owner's browser.
    const attacker = new Client(api.url);
    const bait = uniquePhone();
    expect((await attacker.post("/auth/phone/code", { phone: bait }, address())).status).toBe(200);
    await loggedCode(bait);
    for (let i = 0; i < LIMITS.triesPerAccount; i++)
      await attacker.post("/signup.php", { phone: uniquePhone(), password: "secret-pass", code: "123456" }, address());
    expect(
      (await attacker.post("/signup.php", { phone: uniquePhone(), password: "secret-pass", code: "123456" }, address())).status,
    ).toBe(429);
    const owner = new Client(api.url).shareCookies(attacker);
    const phone = uniquePhone();
    const headers = address();
    expect((await owner.post("/signup.php", { phone, password: "secret-pass" }, headers)).status).toBe(201);
    expect((await owner.post("/login-session-fix.php", { phone, password: "secret-pass" }, headers)).status).toBe(200);
    // The owner's tries are the account's own.
    expect((await owner.post("/auth/phone/code", {}, headers)).status).toBe(200);
    const proven = await owner.post("/auth/phone/verify", { code: await loggedCode(phone) }, headers);
    expect(proven.status).toBe(200);
    expect(proven.body.user).toMatchObject({ phone, phoneStatus: "proven" });
  });

  it("counts an IPv6 client by its /64 in every per-address limit", async () => {
    const prefix = `2001:db8:${(process.pid % 0xffff).toString(16)}:77`;
    for (let i = 1; i <= LIMITS.codesPerAddress; i++) {
      const phone = uniquePhone();
      const headers = { "x-forwarded-for": `${prefix}::${i.toString(16)}` };
      expect((await new Client(api.url).post("/auth/phone/code", { phone }, headers)).status, `code ${i}`).toBe(200);
      await loggedCode(phone);
    }
    const sameNetwork = { "x-forwarded-for": `${prefix}:ffff:ffff:ffff:ffff` };
    expect((await new Client(api.url).post("/auth/phone/code", { phone: uniquePhone() }, sameNetwork)).status).toBe(429);
    const nextNetwork = { "x-forwarded-for": `2001:db8:${(process.pid % 0xffff).toString(16)}:78::1` };
    const phone = uniquePhone();
    expect((await new Client(api.url).post("/auth/phone/code", { phone }, nextNetwork)).status).toBe(200);
    await loggedCode(phone);
    // Signups too (the limit every signup without a code counts).
    for (let i = 1; i <= LIMITS.signups; i++)
      expect(
        (
          await new Client(api.url).post(
            "/signup.php",
            { phone: uniquePhone(), password: "secret-pass" },
            { "x-forwarded-for": `${prefix}::a${i}` },
          )
        ).status,
      ).toBe(201);
    const signup = await new Client(api.url).post(
      "/signup.php",
      { phone: uniquePhone(), password: "secret-pass" },
      { "x-forwarded-for": `${prefix}::b1` },
    );
    expect(signup.status).toBe(429);
  });
});

describe("a prober asking about numbers", () => {
  it("gets the same answers for a proven number as for any other, after its budget is spent; only the code's holder hears the 409", async () => {
    const proven = await signedUp();
    expect((await proven.client.post("/auth/phone/code", {}, proven.headers)).status).toBe(200);
    expect(
      (await proven.client.post("/auth/phone/verify", { code: await loggedCode(proven.phone) }, proven.headers)).status,
    ).toBe(200);
    const unproven = await signedUp();

    const prober = new Client(api.url);
    const headers = address();
    const answers: Record<string, unknown>[] = [];
    for (const phone of [proven.phone, unproven.phone]) {
      const sent = await prober.post("/auth/phone/code", { phone }, headers);
      expect(sent.status, phone).toBe(200);
      answers.push({ ...sent.body, phone: undefined });
      await loggedCode(phone);
      const tried = await prober.post("/signup.php", { phone, password: "prober-pass", code: "123456" }, headers);
      expect(tried.status, phone).toBe(400);
      answers.push({ code: tried.body.code, field: tried.body.field });
    }
    expect(answers[0]).toEqual(answers[2]);
    expect(answers[1]).toEqual(answers[3]);

    // The address's budget is spent first: past it, a proven number gets the same 429 as any other.
    for (let i = 2; i < LIMITS.codesPerAddress; i++)
      expect((await prober.post("/auth/phone/code", { phone: uniquePhone() }, headers)).status).toBe(200);
    const past = await prober.post("/auth/phone/code", { phone: proven.phone }, headers);
    expect(past.status).toBe(429);
    expect(past.body.code).toBe("too_many_codes");

    // The number's owner, signed out on another device, has the code: told the number is subscribed.
    const device = new Client(api.url);
    const own = address();
    expect((await device.post("/auth/phone/code", { phone: proven.phone }, own)).status).toBe(200);
    const code = await loggedCode(proven.phone);
    const taken = await device.post("/signup.php", { phone: proven.phone, password: "owner-pass", code }, own);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe("This phone number is already subscribed. Please try logging in instead.");
  });
});

describe("the countries codes go to (PHONE_CODE_COUNTRIES)", () => {
  it("sends codes to numbers of the listed countries only: others get 400 naming phone, in the user's language, with no budget spent", async () => {
    const { client, headers } = await signedUp();
    for (const phone of ["+447700900123", "+966501234567"]) {
      const refused = await client.post("/auth/phone/code", { phone }, { ...headers, "accept-language": "ar" });
      expect(refused.status, phone).toBe(400);
      expect(refused.body, phone).toMatchObject({ code: "phone_country", field: "phone" });
    }
    const egypt = `+2010${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const sent = await client.post("/auth/phone/code", { phone: egypt }, headers);
    expect(sent.status).toBe(200);
    expect(sent.body.phone).toBe(egypt);
    await loggedCode(egypt);
  });
});

describe("a number signed up by someone else", () => {
  it("goes back to its proven owner; the unproven account keeps its coins, signs in as before and must prove another number", async () => {
    const squatter = await signedUp();
    const admin = new Client(api.url);
    expect((await admin.post("/admin/login.php", ADMIN)).status).toBe(200);
    const squatterId = (await squatter.client.get("/session-check-simple.php")).body.user.id;
    expect((await admin.post("/admin/update-user-tier.php", { userId: squatterId, newCoins: 40, newTier: 1 })).status).toBe(200);

    // The owner cannot sign up (SPEC's 409), but can prove the number is theirs and sign up with its code.
    const owner = new Client(api.url);
    const headers = address();
    const taken = await owner.post("/signup.php", { phone: squatter.phone, password: "owner-pass" }, headers);
    expect(taken.status).toBe(409);
    expect((await owner.post("/auth/phone/code", { phone: squatter.phone }, headers)).status).toBe(200);
    const code = await loggedCode(squatter.phone);
    const wrong = { phone: squatter.phone, password: "owner-pass", code: code === "999999" ? "111111" : "999999" };
    const wrongCode = await owner.post("/signup.php", wrong, headers);
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.field).toBe("code");
    const created = await owner.post("/signup.php", { phone: squatter.phone, password: "owner-pass", code }, headers);
    expect(created.status).toBe(201);
    expect(created.body.user).toMatchObject({ phone: squatter.phone, phoneStatus: "proven" });

    // The squatter's live session and a new sign-in both reach its own account, coins and all.
    expect((await squatter.client.get("/session-check-simple.php")).body.user).toMatchObject({
      id: squatterId,
      phoneStatus: "released",
    });
    const again = new Client(api.url);
    const login = await again.post("/login-session-fix.php", { phone: squatter.phone, password: "secret-pass" }, address());
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ id: squatterId, phone: squatter.phone, phoneStatus: "released" });
    expect(await walletCoins(again)).toBe(40);
    const ownerLogin = await new Client(api.url).post(
      "/login-session-fix.php",
      { phone: squatter.phone, password: "owner-pass" },
      address(),
    );
    expect(ownerLogin.body.user).toMatchObject({ id: created.body.user.id, phoneStatus: "proven" });

    // The number is the owner's now (its code would go to the owner, who alone would hear the 409); the squatter proves a number of its own.
    const owners = await again.post("/auth/phone/code", { phone: squatter.phone }, address());
    expect(owners.status).toBe(200);
    const notTheirs = await again.post("/auth/phone/verify", { phone: squatter.phone, code: "000000" }, address());
    expect(notTheirs.status).toBe(400);
    expect(notTheirs.body.field).toBe("code");
    const own = uniquePhone();
    expect((await again.post("/auth/phone/code", { phone: own }, address())).status).toBe(200);
    const proven = await again.post("/auth/phone/verify", { phone: own, code: await loggedCode(own) }, address());
    expect(proven.status).toBe(200);
    expect(proven.body.user).toMatchObject({ id: squatterId, phone: own, phoneStatus: "proven" });
    expect(await walletCoins(again)).toBe(40);
    const byNewNumber = await new Client(api.url).post(
      "/login-session-fix.php",
      { phone: own, password: "secret-pass" },
      address(),
    );
    expect(byNewNumber.body.user).toMatchObject({ id: squatterId, phoneStatus: "proven" });
  });

  it("takes a number back from an unproven account for a signed-in user proving it too", async () => {
    const squatter = await signedUp();
    const owner = await signedUp();
    expect((await owner.client.post("/auth/phone/code", { phone: squatter.phone }, owner.headers)).status).toBe(200);
    const moved = await owner.client.post(
      "/auth/phone/verify",
      { phone: squatter.phone, code: await loggedCode(squatter.phone) },
      owner.headers,
    );
    expect(moved.status).toBe(200);
    expect(moved.body.user).toMatchObject({ phone: squatter.phone, phoneStatus: "proven" });
    expect((await squatter.client.get("/session-check-simple.php")).body.user.phoneStatus).toBe("released");
    // The owner's first number is free again.
    expect(
      (await new Client(api.url).post("/signup.php", { phone: owner.phone, password: "secret-pass" }, address())).status,
    ).toBe(201);
  });
});

describe("the per-address signup limit", () => {
  it("counts the accounts nobody proved: a proven signup gives its place back, so phones behind one address keep signing up", async () => {
    const headers = address();
    for (let i = 0; i < LIMITS.signups + 2; i++) {
      const { client, phone } = await signedUp(headers);
      expect((await client.post("/auth/phone/code", {}, headers)).status).toBe(200);
      expect((await client.post("/auth/phone/verify", { code: await loggedCode(phone) }, headers)).status).toBe(200);
    }
    for (let i = 0; i < LIMITS.signups; i++) await signedUp(headers);
    const refused = await new Client(api.url).post("/signup.php", { phone: uniquePhone(), password: "secret-pass" }, headers);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("too_many_signups");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
  });
});
