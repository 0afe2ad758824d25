/**
 * `npm run backup [file]` and `npm run restore <file>` for the embedded default (npm start's data
 * directory, DATA_DIR, ./data by default), or for MONGODB_URI / REDIS_URL when they are set.
 *
 * A backup is one gzipped JSON-lines file: every document of every collection (Extended JSON, so
 * ObjectIds and dates survive) and every Redis key as Redis' own DUMP with its time to live.
 * It is taken from the running stack (npm start records its addresses in DATA_DIR/stack.json) or,
 * when nothing runs, from the data directory started on its own. The database is read collection
 * by collection, so a write landing between two reads could leave a balance disagreeing with the
 * ledger in the file: the backup checks every settled balance against its ledger sum and reads
 * again (up to five times) until no disagreement changes between two reads. Restoring replaces
 * everything in the target.
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { createGunzip, createGzip } from "node:zlib";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { isRunning, startMongo, startRedis, type RunningService } from "./lib/infra";

const { EJSON } = mongoose.mongo.BSON;
const FORMAT = "storefront-backup/1";

export interface Endpoints {
  mongoUri: string;
  redisUrl: string;
}

type Line =
  | { format: string; createdAt: string }
  | { collection: string; doc: unknown }
  | { key: string; dump: string; pttl: number };

/** Where npm start's running stack can be reached, when it runs on `dataDir`. */
export function runningStack(dataDir: string): (Endpoints & { pid: number }) | null {
  const file = path.join(dataDir, "stack.json");
  if (!existsSync(file)) return null;
  const info = JSON.parse(readFileSync(file, "utf8")) as Endpoints & { pid: number };
  // A file whose process is gone was left behind by a stack that did not stop cleanly.
  return isRunning(info.pid) ? info : null;
}

/** Starts the embedded Redis and database on `dataDir` (the same files npm start uses). */
export async function startEmbedded(dataDir: string): Promise<Endpoints & { stop(): Promise<void> }> {
  const services: RunningService[] = await Promise.all([
    startMongo({ dataFile: path.join(dataDir, "mongo", "storefront.mv") }),
    startRedis({ dataDir: path.join(dataDir, "redis") }),
  ]);
  return {
    mongoUri: services[0]!.url,
    redisUrl: services[1]!.url,
    stop: async () => {
      await Promise.all(services.map((s) => s.stop()));
    },
  };
}

async function readDatabase(db: mongoose.mongo.Db): Promise<Map<string, unknown[]>> {
  const collections = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((name) => !name.startsWith("system."))
    .sort();
  const docs = new Map<string, unknown[]>();
  for (const name of collections) docs.set(name, await db.collection(name).find({}).toArray());
  return docs;
}

/** Replaces what `docs` holds of these users (their record and their ledger entries) with a fresh read. */
async function readUsersAgain(db: mongoose.mongo.Db, docs: Map<string, unknown[]>, userIds: string[]): Promise<void> {
  const ids = userIds.map((id) => new mongoose.Types.ObjectId(id));
  const wanted = new Set(userIds);
  const users = await db
    .collection("users")
    .find({ _id: { $in: ids } })
    .toArray();
  const entries = await db
    .collection("ledger")
    .find({ userId: { $in: ids } })
    .toArray();
  const others = (name: string, key: "_id" | "userId") =>
    ((docs.get(name) ?? []) as Record<string, unknown>[]).filter((d) => !wanted.has(String(d[key])));
  docs.set("users", [...others("users", "_id"), ...users]);
  docs.set("ledger", [...others("ledger", "userId"), ...entries]);
}

/**
 * Users whose balance differs from the sum of their entries up to the one it was copied from
 * (`ledgerSeq`, docs/ledger.md: an entry newer than the copy is a movement whose copy is on its way),
 * with the difference.
 */
function ledgerDisagreements(docs: Map<string, unknown[]>): string[] {
  const users = (docs.get("users") ?? []) as { _id: unknown; coins?: number; ledgerSeq?: number }[];
  const copiedAt = new Map(users.map((u) => [String(u._id), u.ledgerSeq ?? 0]));
  const sums = new Map<string, number>();
  for (const e of (docs.get("ledger") ?? []) as { userId: unknown; seq: number; amount: number }[]) {
    if (e.seq <= (copiedAt.get(String(e.userId)) ?? 0)) sums.set(String(e.userId), (sums.get(String(e.userId)) ?? 0) + e.amount);
  }
  return users
    .filter((u) => (u.coins ?? 0) !== (sums.get(String(u._id)) ?? 0))
    .map((u) => `${String(u._id)}:${(u.coins ?? 0) - (sums.get(String(u._id)) ?? 0)}`)
    .sort();
}

export async function backup(endpoints: Endpoints, file: string): Promise<{ documents: number; keys: number }> {
  const conn = await mongoose.createConnection(endpoints.mongoUri).asPromise();
  const redis = new Redis(endpoints.redisUrl, { maxRetriesPerRequest: 3 });
  try {
    // A disagreement seen the same in two reads in a row was there before the backup (a
    // balance edited outside the ledger, which `npm run reconcile` reports); one that changes is
    // a write racing the read (the users and the ledger are read at different moments), so those
    // users are read again, each with their entries, until what is read of them holds still.
    const docs = await readDatabase(conn.db!);
    let seen = ledgerDisagreements(docs).join(",");
    for (let attempt = 1; seen !== ""; attempt++) {
      if (attempt === 20) throw new Error(`balances kept changing during the backup: ${seen}`);
      await readUsersAgain(
        conn.db!,
        docs,
        seen.split(",").map((d) => d.slice(0, d.lastIndexOf(":"))),
      );
      const now = ledgerDisagreements(docs).join(",");
      if (now === seen) break;
      seen = now;
    }
    const lines: Line[] = [{ format: FORMAT, createdAt: new Date().toISOString() }];
    let documents = 0;
    for (const [collection, list] of docs) {
      for (const doc of list) lines.push({ collection, doc: EJSON.serialize(doc, { relaxed: false }) });
      documents += list.length;
    }
    let keys = 0;
    let cursor = "0";
    do {
      const [next, batch] = await redis.scan(cursor, "COUNT", 500);
      cursor = next;
      for (const key of batch) {
        const [dump, pttl] = await Promise.all([redis.dumpBuffer(key), redis.pttl(key)]);
        if (!dump || pttl === -2) continue; // gone since the scan
        lines.push({ key, dump: dump.toString("base64"), pttl });
        keys += 1;
      }
    } while (cursor !== "0");
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    await pipeline(
      Readable.from(lines.map((l) => `${JSON.stringify(l)}\n`)),
      createGzip(),
      createWriteStream(file, { mode: 0o600 }),
    );
    return { documents, keys };
  } finally {
    redis.disconnect();
    await conn.close();
  }
}

/** Replaces the database and Redis at `endpoints` with the backup's contents. */
export async function restore(endpoints: Endpoints, file: string): Promise<{ documents: number; keys: number }> {
  // Read the whole file first: readline drops lines emitted while nothing iterates yet.
  const input = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  let header = true;
  const docs = new Map<string, Record<string, unknown>[]>();
  const keys: { key: string; dump: Buffer; pttl: number }[] = [];
  for await (const text of input) {
    if (!text) continue;
    const line = JSON.parse(text) as Line;
    if (header) {
      if (!("format" in line) || line.format !== FORMAT) throw new Error(`${file} is not a storefront backup`);
      header = false;
    } else if ("collection" in line) {
      const list = docs.get(line.collection) ?? [];
      list.push(EJSON.deserialize(line.doc as Record<string, unknown>, { relaxed: false }) as Record<string, unknown>);
      docs.set(line.collection, list);
    } else if ("key" in line) {
      keys.push({ key: line.key, dump: Buffer.from(line.dump, "base64"), pttl: line.pttl });
    }
  }
  if (header) throw new Error(`${file} is empty`);
  const conn = await mongoose.createConnection(endpoints.mongoUri).asPromise();
  const redis = new Redis(endpoints.redisUrl, { maxRetriesPerRequest: 3 });
  try {
    await conn.db!.dropDatabase();
    let documents = 0;
    for (const [collection, list] of docs) {
      if (list.length) await conn.db!.collection(collection).insertMany(list, { ordered: true });
      documents += list.length;
    }
    // Indexes are created by the API at start-up (createIndexes), as on a fresh database.
    await redis.flushdb();
    for (const { key, dump, pttl } of keys) await redis.restore(key, pttl > 0 ? pttl : 0, dump, "REPLACE");
    return { documents, keys: keys.length };
  } finally {
    redis.disconnect();
    await conn.close();
  }
}

async function main(): Promise<void> {
  const [command, fileArg] = process.argv.slice(2);
  const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
  const external = process.env.MONGODB_URI && process.env.REDIS_URL;
  if (command !== "backup" && command !== "restore") throw new Error("usage: backup.ts backup [file] | restore <file>");
  const running = external ? null : runningStack(dataDir);
  if (command === "restore" && !fileArg) throw new Error("usage: npm run restore <file>");
  if (command === "restore" && running) {
    throw new Error(`npm start is running on ${dataDir} (pid ${running.pid}): stop it (Ctrl+C) before restoring`);
  }
  const embedded = external || running ? null : (mkdirSync(dataDir, { recursive: true }), await startEmbedded(dataDir));
  const endpoints: Endpoints = external
    ? { mongoUri: process.env.MONGODB_URI!, redisUrl: process.env.REDIS_URL! }
    : (running ?? embedded!);
  try {
    if (command === "backup") {
      const file = fileArg ?? path.join("backups", `storefront-${new Date().toISOString().replace(/[:.]/gu, "-")}.jsonl.gz`);
      const report = await backup(endpoints, file);
      console.log(`[backup] ${report.documents} documents and ${report.keys} Redis keys written to ${file}`);
    } else {
      const report = await restore(endpoints, fileArg!);
      console.log(`[restore] ${report.documents} documents and ${report.keys} Redis keys restored from ${fileArg}`);
    }
  } finally {
    await embedded?.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`[backup] ${(error as Error).message}`);
    process.exit(1);
  });
}
