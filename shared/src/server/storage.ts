/**
 * Media storage behind one interface: local disk under DATA_DIR/media by default. Keys are
 * "<kind>/<ownerId>/<name>.<ext>"; routes check the owner before serving a key.
 */
import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

export interface StoredObject {
  stream: Readable;
  size: number;
  contentType: string;
}

export interface Storage {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  remove(key: string): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
};

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}

const SAFE_KEY = /^[a-z0-9-]+\/[a-f0-9]{24}\/[A-Za-z0-9._-]+$/u;

const isSafeKey = (key: string) => SAFE_KEY.test(key) && !key.includes("..");

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`unsafe storage key ${key}`);
}

/** The URL a stored key is served at (GET /api/media/<key>, owner only), for the API and the workers. */
export function storedFileUrl(key: string): string {
  return `/api/media/${key}`;
}

/** The user a key belongs to; null for a key that is not a safe storage key (so callers answer 404). */
export function ownerOfKey(key: string): string | null {
  return isSafeKey(key) ? (key.split("/")[1] ?? null) : null;
}

/**
 * The URL a stored image or video is served at (GET /api/media/<key>, owner only: the media
 * route of api/src/routes/images/media.ts). One definition for the API and the workers.
 */
export function mediaUrl(key: string): string {
  return `/api/media/${key}`;
}

export function localDiskStorage(root: string): Storage {
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    async put(key, data) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, data);
      await rename(temp, file);
    },
    async get(key) {
      const file = resolve(key);
      try {
        const info = await stat(file);
        return { stream: createReadStream(file), size: info.size, contentType: contentTypeOf(key) };
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
  };
}

export function mediaRoot(dataDir: string): string {
  return path.join(dataDir, "media");
}
