import type { Queue } from "bullmq";
import { describe, expect, it } from "vitest";
import { QUEUE_NAMES } from "@storefront/shared";
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
    const answers = await Promise.all(Array.from({ length: 50 }, () => queuesWithoutLiveWorker(queues)));
    for (const missing of answers) expect(missing).toEqual(["video"]);
    expect(await queuesWithoutLiveWorker(queues)).toEqual(["video"]);
    expect(lookups).toBe(QUEUE_NAMES.length);
    // The probe keeps its own answers: a charged call still looks up for itself.
    expect(await hasLiveWorker(queues.video)).toBe(false);
    expect(lookups).toBe(QUEUE_NAMES.length + 1);
  });
});
