/** A tiny HTTP client with a cookie jar, so tests talk to the API as a browser does. */
import { inject } from "vitest";
import type { z } from "zod";
import type { chatRequestSchema } from "@storefront/shared";
import { User } from "@storefront/shared/server";

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class Client {
  private readonly cookies = new Map<string, string>();
  /** A request still unanswered after this fails (status 0 in callers that catch) instead of hanging a test. */
  timeoutMs = 90_000;

  constructor(readonly baseUrl: string = inject("baseUrl")) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookieValue(name: string, value: string): this {
    this.cookies.set(name, value);
    return this;
  }

  /** The same cookies as `other` (its session, on another API process of the same run). */
  shareCookies(other: Client): this {
    for (const [name, value] of other.cookies) this.cookies.set(name, value);
    return this;
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const init: RequestInit = { method, headers: { ...headers }, signal: AbortSignal.timeout(this.timeoutMs) };
    const h = init.headers as Record<string, string>;
    if (this.cookies.size) h.cookie = this.cookieHeader();
    if (body instanceof FormData) init.body = body;
    else if (typeof body === "string") {
      init.body = body;
      h["content-type"] ??= "application/json";
    } else if (body !== undefined) {
      init.body = JSON.stringify(body);
      h["content-type"] = "application/json";
    }
    const res = await fetch(`${this.baseUrl}/api${path}`, init);
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (/expires=Thu, 01 Jan 1970/iu.test(line) || value === "") this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>("GET", path, undefined, headers);
  }

  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("POST", path, body ?? {}, headers);
  }
}

let counter = 0;

/** A phone number no other test uses in this run. */
export function uniquePhone(): string {
  counter += 1;
  const base = `${process.pid % 10_000}`.padStart(4, "0");
  // Ten national digits: a number libphonenumber finds possible for +1, as the phone field and the API require.
  return `+1${base}${String(counter).padStart(5, "0")}${Math.floor(Math.random() * 10)}`;
}

export async function newUser(password = "secret-pass"): Promise<{ client: Client; id: string; phone: string }> {
  const client = new Client();
  const phone = uniquePhone();
  const signup = await client.post("/signup.php", { phone, password });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.body)}`);
  const login = await client.post("/login-session-fix.php", { phone, password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { client, id: login.body.user.id, phone };
}

/**
 * Marks the user's number proven, as the code sent to it would (tests/integration/phone-proof.test.ts
 * proves numbers through the API): for suites about what a proven number enables, the SMS pipeline.
 * Needs the file's mongoose connection to the run's database.
 */
export async function provenInDatabase<T extends { id: string }>(user: T): Promise<T> {
  await User.updateOne({ _id: user.id }, { $set: { phoneVerifiedAt: new Date() } });
  return user;
}

let sharedAdmin: Promise<Client> | null = null;

/**
 * The test run's super admin, logged in once per test file: admin logins are rate limited per
 * username, and every suite uses the same administrator.
 */
export function adminClient(): Promise<Client> {
  sharedAdmin ??= (async () => {
    const client = new Client();
    const res = await client.post("/admin/login.php", { username: inject("adminUsername"), password: inject("adminPassword") });
    if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return client;
  })();
  sharedAdmin.catch(() => (sharedAdmin = null));
  return sharedAdmin;
}

/** Sets a user's balance through the documented admin call (a ledger entry). */
export async function giveCoins(userId: string, coins: number, tier = 1): Promise<void> {
  const admin = await adminClient();
  const res = await admin.post("/admin/update-user-tier.php", { userId, newCoins: coins, newTier: tier });
  if (res.status !== 200) throw new Error(`set coins failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The client's coin balance as the wallet screen reads it. */
export async function walletCoins(client: Client): Promise<number> {
  return (await client.get("/wallet/get.php")).body.wallet.coins;
}

/**
 * The body of a text chat call (textai/chat.php, shared chatRequestSchema) as the Text AI screen
 * sends a first message: a new conversation, the general persona, in English.
 */
export function chatBody(message: string, userId?: string) {
  return {
    message,
    ...(userId ? { userId } : {}),
    conversationId: null,
    avatarType: "general",
    conversationHistory: [],
    language: "en",
  } satisfies z.input<typeof chatRequestSchema>;
}
