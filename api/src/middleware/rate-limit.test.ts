import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { AppError } from "../errors";
import { hit } from "./rate-limit";

const redis = new Redis(inject("redisUrl"));
afterAll(() => redis.quit());

describe("hit", () => {
  it("lets `limit` hits through in a window and answers the next with a 429 and Retry-After", async () => {
    const key = `test:${Date.now()}:${Math.random()}`;
    for (let i = 0; i < 5; i++) await hit(redis, key, 5, 60, "slow down");
    const error = await hit(redis, key, 5, 60, "slow down").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 429, message: "slow down" });
    expect((error as AppError).extra.retryAfter).toBeGreaterThan(0);
    expect((error as AppError).extra.retryAfter).toBeLessThanOrEqual(60);
  });

  it("counts keys separately and forgets them after the window", async () => {
    const key = `test:${Date.now()}:${Math.random()}`;
    await hit(redis, key, 1, 1, "x");
    await expect(hit(redis, `${key}:other`, 1, 1, "x")).resolves.toBeUndefined();
    await expect(hit(redis, key, 1, 1, "x")).rejects.toBeInstanceOf(AppError);
    // The window ends when Redis expires its counter.
    while ((await redis.exists(`rl:${key}`)) === 1) await new Promise((r) => setTimeout(r, 25));
    await expect(hit(redis, key, 1, 1, "x")).resolves.toBeUndefined();
  });
});
