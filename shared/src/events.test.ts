import { describe, expect, it } from "vitest";
import type { ServerEvents } from "./events";
import { jobResults } from "./schemas/jobs";

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
