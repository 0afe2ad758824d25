/** Media storage for the image and video workers: the same store the API serves from. */
import { localDiskStorage, mediaRoot, type Storage } from "@storefront/shared/server";
import { workerContext } from "./charged";

let storage: Storage | undefined;

export function workerStorage(): Storage {
  storage ??= localDiskStorage(mediaRoot(workerContext().config.dataDir));
  return storage;
}

/** Lets tests point the processors at a store of their own. */
export function setWorkerStorage(next: Storage): void {
  storage = next;
}

export async function readStored(key: string): Promise<Buffer | null> {
  const object = await workerStorage().get(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The URL the API serves a stored key at (owner only); api/src/services/media.ts builds the same. */
export function mediaUrl(key: string): string {
  return `/api/media/${key}`;
}
