import { describe, expect, it } from "vitest";
import type { ServerEvents } from "./events";
import { isHeldQueue, jobResults } from "./schemas/jobs";

describe("the job:completed push", () => {
  it("carries its own queue's result, told apart by queue", () => {
    const pushes: ServerEvents["job:completed"][] = [
      { jobId: "c", queue: "chat", result: { reply: "hi" } },
      {
        jobId: "v",
        queue: "video",
        result: { videoId: "v1", status: "completed", key: "videos/v1.mp4", videoUrl: "/api/media/videos/v1.mp4" },
      },
    ];
    // @ts-expect-error an image job's push carries its image record, not a chat reply
    const wrong: ServerEvents["job:completed"] = { jobId: "i", queue: "image", result: { reply: "hi" } };
    const shown = pushes.map((p) =>
      p.queue === "chat" ? p.result.reply : p.queue === "video" ? p.result.videoUrl : p.result.image.url,
    );
    expect(shown).toEqual(["hi", "/api/media/videos/v1.mp4"]);
    expect(jobResults[wrong.queue].safeParse(wrong.result).success).toBe(false);
    expect(pushes.every((p) => jobResults[p.queue].safeParse(p.result).success)).toBe(true);
  });
});

describe("the job:failed and job:progress pushes", () => {
  it("name a queue of the union, and a stored name is told apart at run time", () => {
    const failed: ServerEvents["job:failed"] = { jobId: "j", queue: "image", code: "job_failed", error: "x", refunded: 5 };
    // @ts-expect-error the sms-reply queue holds no coins, so no job:failed names it
    const notHeld: ServerEvents["job:failed"] = { ...failed, queue: "sms-reply" };
    // @ts-expect-error a queue name read from storage is a string until isHeldQueue says otherwise
    const stored: ServerEvents["job:failed"] = { ...failed, queue: "retired-queue" as string };
    // @ts-expect-error the maintenance queue reports no job progress
    const progress: ServerEvents["job:progress"] = { jobId: "j", queue: "maintenance", progress: 5 };
    expect([failed, notHeld, stored].map((p) => isHeldQueue(p.queue))).toEqual([true, false, false]);
    expect(isHeldQueue(progress.queue)).toBe(false);
    expect([null, undefined, "", "toString", "chat", "video"].map(isHeldQueue)).toEqual([false, false, false, false, true, true]);
  });
});
