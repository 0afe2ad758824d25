import type { Queue } from "bullmq";
import { describe, expect, it } from "vitest";
import { QUEUE_NAMES } from "@storefront/shared";
import type { Redis } from "ioredis";
import type { Queues } from "@storefront/shared/server";
import { hasLiveWorker, queuesWithoutLiveWorker } from "./queue-health";

describe("queuesWithoutLiveWorker", () => {
  it("names the queues no worker serves, and asks Redis once per queue however often the probe is called, apart from the charged calls", async () => {
    let lookups = 0;
    const queues = Object.fromEntries(
      QUEUE_NAMES.map((name) => [
        name,
        {
          getWorkersCount: () => {
            lookups += 1;
            return Promise.resolve(name === "video" ? 0 : 1);
          },
        } as unknown as Queue,
      ]),
    ) as Queues;
    // Every connected worker beat 200 ms ago (the beat read answers one age per queue asked).
    const redis = { eval: (_script: string, count: number) => Promise.resolve(Array(count).fill(200)) } as unknown as Redis;
    const answers = await Promise.all(Array.from({ length: 50 }, () => queuesWithoutLiveWorker(queues, redis)));
    for (const missing of answers) expect(missing).toEqual(["video"]);
    expect(await queuesWithoutLiveWorker(queues, redis)).toEqual(["video"]);
    expect(lookups).toBe(QUEUE_NAMES.length);
    // The probe keeps its own answers: a charged call still looks up for itself.
    expect(await hasLiveWorker(queues.video, redis)).toBe(false);
    expect(lookups).toBe(QUEUE_NAMES.length + 1);
  });
});

describe("hasLiveWorker", () => {
  it("takes a connected worker that has not beaten for 5 s for a frozen one", async () => {
    const queue = { name: "chat", getWorkersCount: () => Promise.resolve(1) } as unknown as Queue;
    const beatAgo = (ms: number) => ({ eval: () => Promise.resolve([ms]) }) as unknown as Redis;
    const cache = new WeakMap();
    expect(await hasLiveWorker(queue, beatAgo(4_900), 0, cache)).toBe(true);
    expect(await hasLiveWorker(queue, beatAgo(5_000), 10_000, cache)).toBe(false);
    // Never beaten (the answer -1): no live worker either.
    expect(await hasLiveWorker(queue, beatAgo(-1), 20_000, cache)).toBe(false);
  });
});
