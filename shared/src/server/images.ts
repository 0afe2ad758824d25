/**
 * The one owner of image records (SPEC §3 "Generated image"): the image worker records the
 * picture a job made, images/save.php records one the client keeps, images/delete.php removes
 * one. A record is keyed by its user and client id, so a retried job or save upserts the same
 * record. Stored files are not touched here: callers put and remove them, told which key a
 * removal left unused.
 */
import type { ImageMode, ImageRecord, ImageSaveRequest } from "../schemas/images";
import type { ImageAgentId } from "../constants";
import { ImageModel, toImageRecord, type ImageDoc } from "./models/index";
import { storedFileUrl } from "./storage";

/** Where the picture a job makes is stored. */
export function imageFileKey(userId: string, imageId: string): string {
  return `images/${userId}/${imageId}.png`;
}

/** The picture a job already stored under `key` (a retry after the store answers with it), or null. */
export async function storedImage(userId: string, imageId: string, key: string): Promise<ImageRecord | null> {
  const doc = await ImageModel.findOne({ userId, clientId: imageId, key }).lean<ImageDoc>();
  return doc ? toImageRecord(doc) : null;
}

export interface MadeImage {
  userId: string;
  imageId: string;
  /** Its stored file (imageFileKey). */
  key: string;
  /** The user's own words, shown in the history. */
  prompt: string;
  size: string;
  mode: ImageMode;
  agent: ImageAgentId;
  jobId: string;
}

/** Records the picture a job made and stored (again, unchanged, when the job is retried). */
export async function recordMadeImage(image: MadeImage): Promise<ImageRecord> {
  const { userId, imageId, key, ...fields } = image;
  const doc = await ImageModel.findOneAndUpdate(
    { userId, clientId: imageId },
    { $set: { key, url: storedFileUrl(key), ...fields }, $setOnInsert: { timestamp: new Date() } },
    { upsert: true, returnDocument: "after" },
  ).lean<ImageDoc>();
  return toImageRecord(doc!);
}

/** The user's pictures, newest first. */
export async function listImages(userId: string, limit = 200): Promise<ImageRecord[]> {
  const docs = await ImageModel.find({ userId }).sort({ timestamp: -1, _id: -1 }).limit(limit).lean<ImageDoc[]>();
  return docs.map(toImageRecord);
}

/** Whether a picture with this URL is in the user's history. */
export async function hasImageUrl(userId: string, url: string): Promise<boolean> {
  return Boolean(await ImageModel.exists({ userId, url }));
}

/**
 * Records a picture the client keeps: updates the record with its client id, else the one with its
 * URL (so a client-made id for a picture already recorded does not list it twice), else adds one. `key` is the stored file its URL names when
 * that file is the user's own, else null: a record's key always follows its URL, so a removal
 * never takes a file another record still shows. Answers the stored key the save left unused
 * (the record named another before), for the caller to remove, or null.
 */
export async function saveKeptImage(
  userId: string,
  image: ImageSaveRequest["imageData"],
  key: string | null,
): Promise<{ unusedKey: string | null }> {
  const find = (filter: { clientId: string } | { url: string }) =>
    ImageModel.findOne({ userId, ...filter }, { _id: 1, key: 1 }).lean<Pick<ImageDoc, "_id" | "key">>();
  const existing = (await find({ clientId: image.id })) ?? (await find({ url: image.url }));
  const fields = {
    url: image.url,
    key,
    prompt: image.prompt,
    size: image.size,
    mode: image.mode,
    ...(image.timestamp ? { timestamp: new Date(image.timestamp) } : {}),
  };
  if (existing) {
    await ImageModel.updateOne({ _id: existing._id }, { $set: fields });
    return { unusedKey: existing.key && existing.key !== key ? await unusedKey(userId, existing.key) : null };
  }
  await ImageModel.updateOne(
    { userId, clientId: image.id },
    { $set: fields, ...(fields.timestamp ? {} : { $setOnInsert: { timestamp: new Date() } }) },
    { upsert: true },
  );
  return { unusedKey: null };
}

/** `key` when no record of the user names it any more, else null. */
async function unusedKey(userId: string, key: string): Promise<string | null> {
  return (await ImageModel.exists({ userId, key })) ? null : key;
}

/**
 * Removes one of the user's pictures. Null when there is none with that id; else the stored key
 * it leaves unused (no other record of the user's names it), for the caller to remove, or null.
 */
export async function removeImage(userId: string, imageId: string): Promise<{ unusedKey: string | null } | null> {
  const doc = await ImageModel.findOneAndDelete({ userId, clientId: imageId }).lean<ImageDoc>();
  if (!doc) return null;
  return { unusedKey: doc.key ? await unusedKey(userId, doc.key) : null };
}
