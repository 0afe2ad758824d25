/**
 * The benchmark's load (scripts/bench/load.ts: many users, one keep-alive client, 16 calls at a
 * time) on the run's stack, then the money check: every user's balance equals the sum of their
 * ledger entries, and no hold is left held. Beside the plain chat calls: callers whose wallet runs
 * dry mid-run (402s) and a retried call with the same Idempotency-Key (charged once).
 */
import { randomUUID } from "node:crypto";
import { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LedgerEntry, User, ledgerSum } from "@storefront/shared/server";
import { BenchClient, runLoad } from "../../scripts/bench/load";
import { until, userWithCoins } from "../support/realtime";
import { useDatabase } from "./admin-helpers";

useDatabase();

const CALLS = 160;
const CONCURRENCY = 16;
const BODY = { message: "hello there", avatarType: "general", language: "en" };

interface Caller {
  id: string;
  cookie: string;
}

let rich: Caller[];
let poor: Caller[];
const client = new BenchClient(CONCURRENCY);
const api = inject("baseUrl");

beforeAll(async () => {
  const make = async (coins: number): Promise<Caller> => {
    const user = await userWithCoins(api, coins);
    return { id: user.id, cookie: user.client.cookieHeader() };
  };
  rich = await Promise.all(Array.from({ length: 12 }, () => make(100_000)));
  // A chat call costs a few coins: these run dry after a handful of calls.
  poor = await Promise.all(Array.from({ length: 4 }, () => make(12)));
}, 60_000);

afterAll(() => client.close());

describe("balances after the benchmark's load", () => {
  it("equal every user's ledger sum, with every hold settled or released", async () => {
    const statuses = new Map<number, number>();
    const callers = [...rich, ...poor];
    const retried = randomUUID();
    const result = await runLoad(CALLS, CONCURRENCY, async (index, lane) => {
      const caller = callers[lane % callers.length]!;
      // Two lanes send the same key once: one job, one charge.
      const key = index === 5 || index === 6 ? retried : randomUUID();
      const res = await client.post(`${api}/api/textai/chat.php`, BODY, {
        cookie: index === 5 || index === 6 ? rich[0]!.cookie : caller.cookie,
        "idempotency-key": key,
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      return [200, 402].includes(res.status) ? undefined : `chat ${res.status}: ${res.body.slice(0, 200)}`;
    });
    expect(result.firstFailure).toBeUndefined();
    expect(statuses.get(200) ?? 0).toBeGreaterThan(CALLS / 2);
    expect(statuses.get(402) ?? 0).toBeGreaterThan(0);

    const ids = callers.map((c) => new Types.ObjectId(c.id));
    // Every hold that took coins is over once its job is: settled (answered) or released (refunded).
    // (A refused hold wrote nothing.)
    await until(async () => (await LedgerEntry.countDocuments({ userId: { $in: ids }, holdState: "held" })) === 0 || undefined);
    for (const caller of callers) {
      const user = await User.findById(caller.id, { coins: 1 }).lean<{ coins: number }>();
      expect(user!.coins, `balance of ${caller.id}`).toBe(await ledgerSum(caller.id));
      expect(user!.coins).toBeGreaterThanOrEqual(0);
    }
    expect(await LedgerEntry.countDocuments({ key: `job:chat:${rich[0]!.id}:${retried}` })).toBe(1);
  });
});
