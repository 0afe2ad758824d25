/**
 * Throws bad input at every route of the API, taken from the route table (api/src/routes), not a
 * hand list: wrong types, missing fields, huge values, query operators, bad encodings and
 * malformed bodies, each as the route's own kind of caller (administrator routes also as a manager
 * and as support, who hold no coins:grant). The answer is never a 500, a 4xx is the JSON error
 * shape, the fuzzed user's coins do not move, no administrator without coins:grant created value,
 * and no administrator route or queue view shows a subscriber's Doctor message or its reply.
 */
import { createHmac } from "node:crypto";
import fc from "fast-check";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AuditLog, ledgerSum } from "@storefront/shared/server";
import { API_ROUTES } from "../../api/src/routes/index";
import type { Route } from "../../api/src/routes/define";
import { documentedPaths } from "../../api/src/routes/openapi";
import { adminClient, Client, giveCoins, newUser, walletCoins } from "../support/client";
import { adminWithRole } from "./admin-helpers";

const COINS = 500;
/** Generated bodies and queries per route and caller (about 23 s for the file on an idle machine at 12). */
const GENERATED_RUNS = 8;
const baseUrl = inject("baseUrl");

let user: Awaited<ReturnType<typeof newUser>>;
let admin: Client;
let manager: Client;
let support: Client;
/** A Doctor message another subscriber sent before the walk, and its reply: no admin answer may hold either. */
let privateTexts: string[];

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri"));
  user = await newUser();
  await giveCoins(user.id, COINS);
  admin = await adminClient();
  manager = await adminWithRole("manager");
  support = await adminWithRole("support");
  const patient = await newUser();
  await giveCoins(patient.id, 50);
  const message = `Fuzz-private-${Date.now().toString(36)} I have a rash on my arm`;
  const asked = await patient.client.post("/textai/chat.php", { message, avatarType: "doctor", language: "en" });
  expect(asked.status).toBe(200);
  privateTexts = [message, asked.body.message as string];
});

afterAll(async () => {
  await mongoose.disconnect();
});

interface Answer {
  status: number;
  text: string;
  contentType: string;
}

/** One raw request: any bytes, any headers, the caller's cookies. */
async function send(
  caller: Client | null,
  method: string,
  path: string,
  body?: string | Buffer | FormData,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  if (caller?.cookieHeader()) h.cookie = caller.cookieHeader();
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: method.toUpperCase(),
    headers: h,
    body: method === "get" ? undefined : (body as BodyInit | undefined),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, text: await res.text(), contentType: res.headers.get("content-type") ?? "" };
}

function expectSafe(answer: Answer, label: string): void {
  expect(answer.status, `${label} -> ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(answer.contentType, label).toMatch(/application\/json/u);
    const body = JSON.parse(answer.text) as { success?: unknown; error?: unknown };
    expect(body.success, label).toBe(false);
    expect(typeof body.error, label).toBe("string");
  }
}

/** Field names a schema reads (its JSON Schema properties), so generated input hits real fields. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, unknown> };
  return Object.keys(json.properties ?? {});
}

const operators = fc.constantFrom<unknown>({ $gt: "" }, { $ne: null }, { $where: "sleep(100)" }, { $regex: ".*" }, ["$in", 1], {
  $expr: { $eq: [1, 1] },
});
const hugeValue = fc.constantFrom<unknown>("x".repeat(100_000), 1e308, -1e308, Number.MAX_SAFE_INTEGER * 8, "9".repeat(400), [
  ...Array(5_000).keys(),
]);
const wrongValue = fc.oneof(fc.anything({ maxDepth: 2 }), operators, hugeValue, fc.string({ maxLength: 40 }), fc.integer());

/** JSON values, mostly wrong, on the route's own body fields. */
function badBody(schema: z.ZodType | undefined) {
  const keys = [...fieldsOf(schema), "userId", "__proto__", "constructor"];
  return fc.oneof(fc.anything({ maxDepth: 3 }), fc.dictionary(fc.constantFrom(...keys), wrongValue, { maxKeys: 6 }));
}

const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom("%00", "%E0%A4%A", "%FF%FE", "9".repeat(500), "-1", "1e309", "NaN", "[object Object]", "x".repeat(5_000)),
);

/** Query strings with operators, repeats, brackets, bad percent-encoding and huge values on the route's own fields. */
function badQuery(schema: z.ZodType | undefined) {
  const keys = [...fieldsOf(schema), "userId", "id", "page", "limit"];
  return fc
    .array(
      fc.tuple(
        fc.constantFrom(...keys),
        fc.constantFrom("", "[$ne]", "[$gt]", "[]", "[0]", "[__proto__]", ".$where"),
        fc.oneof(queryValue.map(encodeURIComponent), queryValue),
      ),
      { minLength: 1, maxLength: 5 },
    )
    .map((pairs) => pairs.map(([key, suffix, value]) => `${key}${suffix}=${value}`).join("&"));
}

/** Fixed malformed bodies and bad encodings, sent to every route that takes a body. */
const MALFORMED: { label: string; body: string | Buffer; headers: Record<string, string> }[] = [
  ...["{", '{"a": }', "[1,2,3]", '"just a string"', "null", "1e309", "{}".repeat(1000), '{"a":1}garbage', "\u0000"].map(
    (body) => ({
      label: `json ${JSON.stringify(body).slice(0, 20)}`,
      body,
      headers: { "content-type": "application/json" },
    }),
  ),
  {
    label: "huge json",
    body: JSON.stringify({ a: "1".repeat(2 * 1024 * 1024) }),
    headers: { "content-type": "application/json" },
  },
  { label: "deep json", body: `${"[".repeat(5_000)}${"]".repeat(5_000)}`, headers: { "content-type": "application/json" } },
  {
    label: "invalid utf-8",
    body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
    headers: { "content-type": "application/json" },
  },
  { label: "utf-7 charset", body: '{"a":"+AGEAYgBj-"}', headers: { "content-type": "application/json; charset=utf-7" } },
  {
    label: "utf-16 charset",
    body: Buffer.from('{"a":1}', "utf16le"),
    headers: { "content-type": "application/json; charset=utf-16" },
  },
  {
    label: "latin1 charset",
    body: Buffer.from([0x7b, 0x7d, 0xe9]),
    headers: { "content-type": "application/json; charset=latin1" },
  },
  {
    label: "bad gzip",
    body: Buffer.from("not gzip at all"),
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
  },
  { label: "unknown coding", body: "{}", headers: { "content-type": "application/json", "content-encoding": "x-squash" } },
  { label: "text/plain", body: '{"a":1}', headers: { "content-type": "text/plain" } },
  { label: "xml", body: "<?xml version='1.0'?><a>1</a>", headers: { "content-type": "application/xml" } },
  { label: "form garbage", body: "a[b][c][d]=1&%ZZ=1&&=&a=%", headers: { "content-type": "application/x-www-form-urlencoded" } },
  { label: "form operators", body: "userId[$ne]=x&id[$gt]=", headers: { "content-type": "application/x-www-form-urlencoded" } },
  { label: "multipart without boundary", body: "--x\r\n", headers: { "content-type": "multipart/form-data" } },
  {
    label: "truncated multipart",
    body: '--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc',
    headers: { "content-type": "multipart/form-data; boundary=b" },
  },
  { label: "no content-type", body: '{"a":1}', headers: {} },
];

const PATH_PARAMS = ["..%2F..%2Fetc%2Fpasswd", "%00", "x".repeat(300), "%E0%A4%A", "images", "$gt", "%252e%252e"];

/** A real path for each documented path: `:param` filled with `value`. */
const fill = (path: string, value: string) => path.replace(/:[A-Za-z0-9_]+/gu, value);

function webhookHeaders(body: string | Buffer, secret: string | null): Record<string, string> {
  if (!secret) return {};
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
  return { "x-signature": `sha256=${signature}`, "x-signature-timestamp": timestamp };
}

/**
 * The callers a route is fuzzed as: its own kind of caller with every case, and (for protected
 * routes) nobody, with the fixed cases only (the auth check answers before the input is read).
 */
function callersFor(route: Route): { label: string; client: Client | null; full: boolean; signed?: boolean }[] {
  switch (route.auth) {
    case "user":
      return [
        { label: "user", client: user.client, full: true },
        { label: "anonymous", client: null, full: false },
      ];
    case "admin":
      return [
        { label: "admin", client: admin, full: true },
        { label: "manager", client: manager, full: true },
        { label: "support", client: support, full: false },
        { label: "anonymous", client: null, full: false },
      ];
    case "metrics":
      return [
        { label: "admin", client: admin, full: true },
        { label: "anonymous", client: null, full: false },
      ];
    case "webhook":
      return [
        { label: "signed", client: null, full: true, signed: true },
        { label: "unsigned", client: null, full: false },
      ];
    case "none":
      return [{ label: "anonymous", client: new Client(), full: true }];
  }
}

let webhookSecret: string | null = null;

const takesBody = (route: Route) => route.method !== "get";
const label = (route: Route, path: string) => `${route.method.toUpperCase()} ${path}`;

describe("bad input on every route of the table never reaches a 500 nor moves a coin", () => {
  it("covers every route of the table", () => {
    // The table is the source; this only guards against an import that silently yields nothing.
    expect(API_ROUTES.length).toBeGreaterThan(40);
  });

  for (const route of API_ROUTES) {
    for (const path of documentedPaths(route)) {
      it(`${label(route, path)} (${route.auth})`, async () => {
        if (route.auth === "webhook" && webhookSecret === null) {
          // Signed requests use the configured secret when it is readable; otherwise only unsigned ones run.
          const config = await admin.get("/sms/integration/config.php");
          const secret = (config.body as { config?: { webhook_secret?: unknown } }).config?.webhook_secret;
          webhookSecret = typeof secret === "string" && secret && !/^\*+$/u.test(secret) ? secret : "";
        }
        const paths = path.includes(":") ? PATH_PARAMS.map((p) => fill(path, p)) : [path];

        for (const caller of callersFor(route)) {
          const secret = caller.signed ? webhookSecret : null;
          const call = (target: string, body?: string | Buffer, headers: Record<string, string> = {}) =>
            send(caller.client, route.method, target, body, {
              ...headers,
              ...(body !== undefined ? webhookHeaders(body, secret) : {}),
            });
          const tag = `${label(route, path)} as ${caller.label}`;

          for (const target of paths) expectSafe(await call(target), `${tag} ${target}`);
          if (takesBody(route)) {
            for (const bad of caller.full ? MALFORMED : MALFORMED.slice(0, 3)) {
              expectSafe(await call(paths[0]!, bad.body, bad.headers), `${tag} ${bad.label}`);
            }
          }
          if (!caller.full) continue;

          await fc.assert(
            fc.asyncProperty(badQuery(route.query), async (query) => {
              expectSafe(await call(`${paths[0]}?${query}`), `${tag} ?${query}`);
            }),
            { numRuns: GENERATED_RUNS },
          );
          if (!takesBody(route)) continue;
          await fc.assert(
            fc.asyncProperty(badBody(route.body), async (body) => {
              // Only bodies the schema refuses: a valid one would really act (sign up, spend, delete).
              if (route.body?.safeParse(body).success) return;
              const text = JSON.stringify(body ?? null) ?? "null";
              expectSafe(await call(paths[0]!, text, { "content-type": "application/json" }), `${tag} ${text.slice(0, 200)}`);
            }),
            { numRuns: GENERATED_RUNS },
          );
          const form = new FormData();
          form.append("userId", "x");
          form.append(
            route.kind === "json" && route.upload ? route.upload.field : "file",
            new Blob([Buffer.from("not an image")]),
            "a.png",
          );
          expectSafe(await send(caller.client, route.method, paths[0]!, form), `${tag} multipart`);
        }
      });
    }
  }

  it("answers a request Node's parser refuses (a URL past the 16 KB header limit) in the JSON error shape", async () => {
    const answer = await fetch(`${baseUrl}/api/admin/user-packages.php?page=${"x".repeat(20_000)}`);
    expect(answer.status).toBe(431);
    expect(answer.headers.get("content-type")).toMatch(/application\/json/u);
    expect(await answer.json()).toEqual({
      success: false,
      error: "The request's URL or headers are too large",
      code: "headers_too_large",
    });
  });

  it("moved no coin of the fuzzed user: the wallet equals its ledger and the starting balance", async () => {
    expect(await walletCoins(user.client)).toBe(COINS);
    expect(await ledgerSum(user.id)).toBe(COINS);
  });

  it("let no administrator without coins:grant create value (shared/src/value-paths.ts)", async () => {
    const ids = await Promise.all(
      [manager, support].map(async (client) => (await client.get("/admin/session.php")).body.admin.id as string),
    );
    const valueActions = ["user.set_wallet", "assignment.create", "assignment.resume", "redemption_batch.create"];
    const entries = await AuditLog.find({ adminId: { $in: ids } }).lean();
    expect(entries.filter((e) => valueActions.includes(e.action) || e.action.startsWith("queue_job."))).toEqual([]);
    expect(entries.filter((e) => e.action === "wallet_config.update" || e.action === "redemption_batch.update")).toEqual([]);
    expect(entries.filter((e) => (e.after as { value_change?: string } | null)?.value_change)).toEqual([]);
  });

  it("shows no subscriber's Doctor message or reply on any administrator route or queue view, to any role", async () => {
    const reads = API_ROUTES.filter((route) => route.auth === "admin" && route.method === "get")
      .flatMap((route) => documentedPaths(route))
      .filter((path) => !path.includes(":"));
    const boardReads = ["chat", "sms-reply", "image"].flatMap((queue) =>
      ["completed", "failed", "waiting", "active"].map(
        (status) => `/admin/queues/board/api/queues?activeQueue=${queue}&status=${status}&page=1&jobsPerPage=100`,
      ),
    );
    for (const [label, client] of [
      ["super_admin", admin],
      ["manager", manager],
      ["support", support],
    ] as const) {
      for (const path of [...reads, ...boardReads]) {
        const answer = await send(client, "get", path);
        for (const secret of privateTexts) expect(answer.text, `${label} GET ${path}`).not.toContain(secret);
      }
    }
  });
});
