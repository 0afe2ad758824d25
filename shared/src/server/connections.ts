import { Redis, type RedisOptions } from "ioredis";
import mongoose from "mongoose";

mongoose.set("strictQuery", true);

export async function connectMongo(uri: string): Promise<typeof mongoose> {
  return mongoose.connect(uri, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 50 });
}

export async function disconnectMongo(): Promise<void> {
  await mongoose.disconnect();
}

/** A Redis connection; BullMQ needs maxRetriesPerRequest null on the connections it blocks on. */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}

export async function mongoReady(): Promise<boolean> {
  try {
    const db = mongoose.connection.db;
    if (!db) return false;
    await db.admin().command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}
