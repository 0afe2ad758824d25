/**
 * The "image" queue: generate a picture or edit an upload through the image provider, store the
 * PNG, record it in the user's history, and answer the waiting HTTP call with the record.
 */
import { UnrecoverableError, type Job, type Processor } from "bullmq";
import type { ImageJobData, ImageJobResult } from "@storefront/shared";
import { imageFileKey, recordMadeImage, storedImage } from "@storefront/shared/server";
import { createImageProvider, type ImageProvider } from "../providers/image/index";
import type { WorkerContext } from "../context";
import { chargedProcessor } from "./charged";
import { readStored } from "./stored-files";

let provider: ImageProvider | undefined;

function imageProvider(ctx: WorkerContext): ImageProvider {
  provider ??= createImageProvider(ctx.config);
  return provider;
}

/** Lets tests run the processor against a provider of their own. */
export function setImageProvider(next: ImageProvider): void {
  provider = next;
}

/** Runs one image job; `data` was parsed by chargedProcessor. */
export async function runImage(ctx: WorkerContext, data: ImageJobData, job: Job): Promise<ImageJobResult> {
  const { pusher, storage } = ctx;
  const jobId = job.id ?? "";
  const key = imageFileKey(data.userId, data.imageId);

  // A retry after the picture was stored (e.g. the settle failed) answers with what is there.
  const done = await storedImage(data.userId, data.imageId, key);
  if (done) return { image: done };

  pusher.toUser(data.userId, "job:progress", { jobId, queue: "image", progress: 10, stage: data.mode });
  let png: Buffer;
  if (data.mode === "edit") {
    if (!data.sourceKey || data.strength === undefined) throw new UnrecoverableError("an edit job needs its upload and strength");
    const source = await readStored(storage, data.sourceKey);
    if (!source) throw new UnrecoverableError("The uploaded image is no longer available");
    png = await imageProvider(ctx).edit({ image: source, prompt: data.prompt, strength: data.strength, size: data.size });
  } else {
    png = await imageProvider(ctx).generate({ prompt: data.prompt, size: data.size });
  }
  pusher.toUser(data.userId, "job:progress", { jobId, queue: "image", progress: 90, stage: "storing" });
  await storage.put(key, png);
  const image = await recordMadeImage({
    userId: data.userId,
    imageId: data.imageId,
    key,
    prompt: data.userPrompt,
    size: data.size,
    mode: data.mode,
    agent: data.agent,
    jobId,
  });
  if (data.sourceKey) await storage.remove(data.sourceKey);
  return { image };
}

/** The charged processor; an edit's upload is removed once its job has finally failed. */
export function imageProcessor(ctx: WorkerContext): Processor {
  return chargedProcessor(ctx, "image", (data, job) => runImage(ctx, data, job), {
    async onFinalFailure(data) {
      if (data.sourceKey) await ctx.storage.remove(data.sourceKey);
    },
  });
}
