/**
 * The "image" queue: generate a picture or edit an upload through the image provider, store the
 * PNG, record it in the user's history, and answer the waiting HTTP call with the record.
 */
import { UnrecoverableError, type Job } from "bullmq";
import type { ImageJobData, ImageJobResult } from "@storefront/shared";
import { ImageModel, toImageRecord, type ImageDoc } from "@storefront/shared/server";
import { createImageProvider, type ImageProvider } from "../providers/image/index";
import { chargedProcessor, workerContext } from "./charged";
import { mediaUrl, readStored, workerStorage } from "./media";

let provider: ImageProvider | undefined;

function imageProvider(): ImageProvider {
  provider ??= createImageProvider(workerContext().config);
  return provider;
}

/** Lets tests run the processor against a provider of their own. */
export function setImageProvider(next: ImageProvider): void {
  provider = next;
}

/** Runs one image job; `data` was parsed by chargedProcessor. */
export async function runImage(data: ImageJobData, job: Job): Promise<ImageJobResult> {
  const { pusher } = workerContext();
  const jobId = job.id ?? "";
  const key = `images/${data.userId}/${data.imageId}.png`;

  // A retry after the picture was stored (e.g. the settle failed) answers with what is there.
  const done = await ImageModel.findOne({ userId: data.userId, clientId: data.imageId, key }).lean<ImageDoc>();
  if (done) return { image: toImageRecord(done) };

  pusher.toUser(data.userId, "job:progress", { jobId, queue: "image", progress: 10, stage: data.mode });
  let png: Buffer;
  if (data.mode === "edit") {
    if (!data.sourceKey || data.strength === undefined) throw new UnrecoverableError("an edit job needs its upload and strength");
    const source = await readStored(data.sourceKey);
    if (!source) throw new UnrecoverableError("The uploaded image is no longer available");
    png = await imageProvider().edit({ image: source, prompt: data.prompt, strength: data.strength, size: data.size });
  } else {
    png = await imageProvider().generate({ prompt: data.prompt, size: data.size });
  }
  pusher.toUser(data.userId, "job:progress", { jobId, queue: "image", progress: 90, stage: "storing" });
  await workerStorage().put(key, png);
  const doc = await ImageModel.findOneAndUpdate(
    { userId: data.userId, clientId: data.imageId },
    {
      $set: { key, url: mediaUrl(key), prompt: data.userPrompt, size: data.size, mode: data.mode, agent: data.agent, jobId },
      $setOnInsert: { timestamp: new Date() },
    },
    { upsert: true, returnDocument: "after" },
  ).lean<ImageDoc>();
  if (data.sourceKey) await workerStorage().remove(data.sourceKey);
  return { image: toImageRecord(doc!) };
}

/** The charged processor; an edit's upload is removed once its job has finally failed. */
export const imageProcessor = chargedProcessor("image", runImage, {
  async onFinalFailure(data) {
    if (data.sourceKey) await workerStorage().remove(data.sourceKey);
  },
});
