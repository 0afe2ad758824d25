/** Reading stored files back, for the image and video workers (the store is WorkerContext.storage). */
import type { Storage } from "@storefront/shared/server";

export async function readStored(storage: Storage, key: string): Promise<Buffer | null> {
  const object = await storage.get(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
