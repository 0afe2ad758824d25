/** The low-balance notice (wallet:low) on the running stack: once per crossing, even under concurrent charges. */
import mongoose from "mongoose";
import type { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { debit, noticeLowBalance, User } from "@storefront/shared/server";
import { giveCoins, newUser } from "../support/client";
import { connectSocket, until } from "../support/realtime";

const baseUrl = inject("baseUrl");
const use = (client: Awaited<ReturnType<typeof newUser>>["client"], tokens: number) =>
  client.post("/wallet/use.php", { featureType: "text", tokens });

beforeAll(() => mongoose.connect(inject("mongoUri")));
afterAll(() => mongoose.disconnect());

describe("low-balance notice", () => {
  it("is pushed once when a charge crosses below 50 coins, and again only after the balance was back above", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 60);
    const { socket, received } = await connectSocket(baseUrl, client);
    const lows = () => received.filter((p) => p.event === "wallet:low");
    try {
      expect((await use(client, 5)).status).toBe(200); // 55: above
      expect((await use(client, 10)).status).toBe(200); // 45: crossed
      await until(() => lows().length === 1 || undefined, 5_000, "the first notice");
      expect(lows()[0]!.payload).toEqual({ coins: 45, threshold: 50 });
      expect((await use(client, 5)).status).toBe(200); // 40: still below, no second notice
      await giveCoins(id, 100); // seen at the next charge
      expect((await use(client, 1)).status).toBe(200); // 99: back above, the flag clears
      expect((await use(client, 60)).status).toBe(200); // 39: crossed again
      await until(() => lows().length === 2 || undefined, 5_000, "the second notice");
      // Every wallet:updated of the charges came, so a third notice would have come with them.
      await until(() => received.filter((p) => p.event === "wallet:updated").length >= 5 || undefined, 5_000, "updates");
      expect(lows()).toHaveLength(2);
    } finally {
      socket.close();
    }
  });

  it("sends one notice when twenty concurrent charges cross together", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    const { socket, received } = await connectSocket(baseUrl, client);
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => use(client, 3)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      await until(() => received.filter((p) => p.event === "wallet:updated").length === 20 || undefined, 5_000, "updates");
      await until(() => received.some((p) => p.event === "wallet:low") || undefined, 5_000, "the notice");
      expect(received.filter((p) => p.event === "wallet:low")).toHaveLength(1);
    } finally {
      socket.close();
    }
  });

  it("puts the crossing back when its SMS cannot be queued, so the next charge below tries again", async () => {
    const { id } = await newUser();
    await giveCoins(id, 10);
    // Failure injection: a queue whose Redis is gone answers every add with an error.
    const down = { add: () => Promise.reject(new Error("Redis is down")) } as unknown as Queue;
    const added: unknown[] = [];
    const up = { add: (_name: string, data: unknown) => Promise.resolve(added.push(data)) } as unknown as Queue;
    const user = { id, threshold: 50, smsAlerts: true, language: "ar" as const };
    expect(await noticeLowBalance({ pusher: null, smsQueue: down }, user, 10)).toBe("alerted");
    expect(await User.findById(id, { lowBalanceAlerted: 1 }).lean()).toMatchObject({ lowBalanceAlerted: false });
    expect(await noticeLowBalance({ pusher: null, smsQueue: up }, user, 10)).toBe("alerted");
    expect(await noticeLowBalance({ pusher: null, smsQueue: up }, user, 10)).toBe("unchanged");
    expect(added).toEqual([{ type: "low_balance", alertId: `${id}-2`, userId: id, coins: 10, threshold: 50, language: "ar" }]);
  });

  it("writes nothing for a charge whose own update shows nothing to change, and carries the flag on the entry", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    const charged = await use(client, 60); // 40: crosses, the flag is set
    expect(charged.status).toBe(200);
    expect(await User.findById(id, { lowBalanceAlerted: 1 }).lean()).toMatchObject({ lowBalanceAlerted: true });
    const user = { id, threshold: 50, smsAlerts: false };
    // Below and already alerted, or above with nothing to clear: answered without touching the user.
    expect(await noticeLowBalance({ pusher: null }, user, 40, true)).toBe("unchanged");
    expect(await noticeLowBalance({ pusher: null }, user, 90, false)).toBe("unchanged");
    expect(await User.findById(id, { lowBalanceAlerted: 1 }).lean()).toMatchObject({ lowBalanceAlerted: true });
    // Not known (a caller without the entry): the conditional writes decide.
    await giveCoins(id, 140);
    expect(await noticeLowBalance({ pusher: null }, user, 140)).toBe("cleared");
    const entry = await debit(id, 100, `low-balance-flag-${id}`, "text");
    expect(entry).toMatchObject({ balanceAfter: 40, lowBalanceAlerted: false });
  });
});
