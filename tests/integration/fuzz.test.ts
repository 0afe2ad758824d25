/**
 * Throws generated bad bodies at every platform route: the answer is always a 4xx JSON error
 * (never a 500) and no balance moves.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  adminLoginRequestSchema,
  loginRequestSchema,
  signupRequestSchema,
  updateUserTierRequestSchema,
  walletUseRequestSchema,
} from "@storefront/shared";
import type { z } from "zod";
import { adminClient, Client, giveCoins, newUser, type Reply } from "../support/client";

const injection = fc.constantFrom<unknown>({ $gt: "" }, { $ne: null }, { $where: "sleep(100)" }, ["$in", 1], { $regex: ".*" });

/** JSON values that the route's schema refuses (so a 2xx would be a bug). */
function invalidFor(schema: z.ZodType) {
  const field = fc.oneof(fc.anything({ maxDepth: 2 }), injection, fc.string({ maxLength: 30 }), fc.integer());
  const keys = ["phone", "password", "username", "userId", "featureType", "feature", "tokens", "newCoins", "newTier", "details"];
  return fc
    .oneof(fc.anything({ maxDepth: 3 }), fc.dictionary(fc.constantFrom(...keys), field, { maxKeys: 5 }))
    .filter((value) => !schema.safeParse(value).success);
}

function expectClientError(res: Reply, label: string): void {
  expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, label).toBeLessThan(500);
  expect(res.body?.success, label).toBe(false);
  expect(typeof res.body?.error, label).toBe("string");
}

describe("bad input never reaches a 500 nor changes data", () => {
  it("refuses malformed JSON, non-object bodies and oversized bodies on every route", async () => {
    const { client } = await newUser();
    const admin = await adminClient();
    const posts: [Client, string][] = [
      [new Client(), "/signup.php"],
      [new Client(), "/login-session-fix.php"],
      [client, "/wallet/use.php"],
      [new Client(), "/admin/login.php"],
      [admin, "/admin/update-user-tier.php"],
    ];
    for (const [c, path] of posts) {
      for (const raw of ["{", '{"phone": }', "[1,2,3]", '"just a string"', "null", "1e309"]) {
        expectClientError(await c.request("POST", path, raw), `${path} ${raw}`);
      }
      const huge = JSON.stringify({ phone: "1".repeat(2 * 1024 * 1024) });
      const res = await c.request("POST", path, huge);
      expect(res.status, path).toBe(413);
    }
  });

  it("answers generated invalid bodies with 4xx and moves no coin", async () => {
    const user = await newUser();
    await giveCoins(user.id, 500);
    const admin = await adminClient();
    const routes: [Client, string, z.ZodType][] = [
      [new Client(), "/signup.php", signupRequestSchema],
      [new Client(), "/login-session-fix.php", loginRequestSchema],
      [user.client, "/wallet/use.php", walletUseRequestSchema],
      [new Client(), "/admin/login.php", adminLoginRequestSchema],
      [admin, "/admin/update-user-tier.php", updateUserTierRequestSchema],
    ];
    for (const [client, path, schema] of routes) {
      await fc.assert(
        fc.asyncProperty(invalidFor(schema), async (body) => {
          expectClientError(await client.request("POST", path, JSON.stringify(body ?? null)), path);
        }),
        { numRuns: 40 },
      );
    }
    // Express 5 parses queries flat: "userId[$ne]" is a literal, ignored key, never an operator.
    for (const query of ["userId[$ne]=x", "userId=%00", `userId=${"9".repeat(70)}`, "id[]=1&id[]=2", "userId=&userId=x"]) {
      const res = await user.client.get(`/wallet/get.php?${query}`);
      expect(res.status, query).toBeLessThan(500);
      if (res.status === 200) expect(res.body.wallet.coins, query).toBe(500);
    }
    expect((await user.client.get("/wallet/get.php")).body.wallet.coins).toBe(500);
  });
});
