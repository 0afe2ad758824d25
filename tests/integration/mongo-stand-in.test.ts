/**
 * The MongoDB-compatible stand-in's launcher (scripts/mongo-server/MongoServerMain.java) lets a unique
 * index serve queries that name its fields among others, and a non-unique index (memory backend) serve
 * queries on its first field. These queries must find what a scan of the whole collection finds, in
 * the same order: the shapes the indexes can look up exactly, and the ones they cannot (which fall
 * back to the scan).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient, ObjectId, type Collection, type Document } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startMongo } from "../../scripts/lib/infra";

let client: MongoClient;
let single: Collection<Document>;
let sparse: Collection<Document>;
let compound: Collection<Document>;
const ids = { a: new ObjectId(), b: new ObjectId() };

beforeAll(async () => {
  client = await MongoClient.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/stand_in_index"));
  const db = client.db();
  await db.dropDatabase();
  single = db.collection("single");
  sparse = db.collection("sparse");
  compound = db.collection("compound");
  await single.createIndex({ k: 1 }, { unique: true });
  await sparse.createIndex({ s: 1 }, { unique: true, sparse: true });
  await compound.createIndex({ a: 1, b: 1 }, { unique: true });
  await single.insertMany([
    { _id: ids.a, k: "alpha", x: 1 },
    { _id: ids.b, k: "beta", x: 2 },
    { k: [], x: 1 },
    { k: [5, 6], x: 1 },
  ]);
  await sparse.insertMany([{ s: "a", x: 1 }, { x: 1 }, { x: 2 }]);
  await compound.insertMany([
    { a: "foo", b: 1, x: 1 },
    { a: [1, 2], b: 3, x: 1 },
    { a: "bar", b: 1, x: 2 },
  ]);
});

/** How many documents a find answers (countDocuments is an aggregation, which never uses the index). */
async function found(collection: Collection<Document>, query: Document): Promise<number> {
  return (await collection.find(query).toArray()).length;
}

/** The same query on the indexed collection and on its unindexed twin, which the server scans. */
async function sameAsScan(query: Document, options: { sort?: Document; limit?: number } = {}): Promise<Document[]> {
  const run = (collection: Collection<Document>) =>
    collection.find(query, { sort: options.sort, limit: options.limit ?? 0 }).toArray();
  const [viaIndex, viaScan] = await Promise.all([run(indexed), run(scanned)]);
  expect(viaIndex).toEqual(viaScan);
  return viaIndex;
}

let indexed: Collection<Document>;
let scanned: Collection<Document>;

afterAll(async () => {
  await client.db().dropDatabase();
  await client.close();
});

describe("a unique index serving a query with more fields", () => {
  it("finds by plain values and $in of them, the other fields still deciding", async () => {
    expect(await found(single, { k: "alpha", x: 1 })).toBe(1);
    expect(await found(single, { k: "alpha", x: 2 })).toBe(0);
    expect(await found(single, { k: { $in: ["alpha", "beta", "gamma"] }, x: 2 })).toBe(1);
    expect(await found(single, { _id: ids.a, x: { $gte: 1 } })).toBe(1);
    expect(await found(single, { _id: { $in: [ids.a, ids.b] }, x: 1 })).toBe(1);
    expect(await found(single, { k: "alpha", $or: [{ x: 2 }, { x: 1 }] })).toBe(1);
  });

  it("updates, upserts and deletes through it as a scan would", async () => {
    expect((await single.updateOne({ k: "beta", x: 3 }, { $set: { y: 1 } })).matchedCount).toBe(0);
    expect((await single.updateOne({ k: "beta", x: 2 }, { $set: { y: 1 } })).modifiedCount).toBe(1);
    const upsert = await single.updateOne({ k: "delta", x: 4 }, { $set: { y: 2 } }, { upsert: true });
    expect(upsert.upsertedCount).toBe(1);
    expect((await single.deleteOne({ k: "delta", x: 5 })).deletedCount).toBe(0);
    expect((await single.deleteOne({ k: "delta", x: 4 })).deletedCount).toBe(1);
  });

  it("falls back to the scan for arrays, regular expressions, nulls on a sparse index and compound arrays", async () => {
    expect(await found(single, { k: [], x: 1 })).toBe(1);
    expect(await found(single, { k: { $in: [/^al/u] }, x: 1 })).toBe(1);
    expect(await found(single, { k: { $in: [[5, 6]] }, x: 1 })).toBe(1);
    expect(await found(single, { k: /^be/u, x: 2 })).toBe(1);
    expect(await found(sparse, { s: { $in: [null, "a"] }, x: 1 })).toBe(2);
    expect(await found(sparse, { s: null, x: 2 })).toBe(1);
    expect(await found(compound, { a: [1, 2], b: 3, x: 1 })).toBe(1);
    expect(await found(compound, { a: /fo/u, b: 1, x: 1 })).toBe(1);
    expect(await found(compound, { a: "bar", b: 1, x: 2 })).toBe(1);
  });
});

describe("a non-unique index serving a query on its first field", () => {
  const owner = { a: new ObjectId(), b: new ObjectId() };

  beforeAll(async () => {
    const db = client.db();
    indexed = db.collection("non_unique_indexed");
    scanned = db.collection("non_unique_scanned");
    await indexed.createIndex({ phone: 1, at: -1 });
    await indexed.createIndex({ owner: 1 });
    const docs = Array.from({ length: 40 }, (_, i) => ({
      _id: new ObjectId(),
      phone: ["+100", "+200", "+300"][i % 3],
      owner: i % 2 ? owner.a : owner.b,
      at: 1000 - i,
      kind: i % 4 ? "in" : "out",
    }));
    docs.push({ _id: new ObjectId(), phone: 5 as never, owner: owner.a, at: 1, kind: "in" });
    docs.push({ _id: new ObjectId(), at: 2, kind: "in" } as never);
    await indexed.insertMany(docs.map((d) => ({ ...d })));
    await scanned.insertMany(docs.map((d) => ({ ...d })));
  });

  it("finds what a scan finds, in the same order, with the other conditions, sorts and limits", async () => {
    expect(await sameAsScan({ phone: "+100" })).toHaveLength(14);
    expect(await sameAsScan({ phone: "+200", kind: "in", $or: [{ at: { $gt: 990 } }, { at: { $lt: 970 } }] })).not.toHaveLength(
      0,
    );
    const last = await sameAsScan({ phone: "+300", kind: { $ne: "out" } }, { sort: { at: -1, _id: -1 }, limit: 5 });
    expect(last.map((d) => d.at)).toEqual([...last.map((d) => d.at)].sort((x, y) => y - x));
    expect(await sameAsScan({ phone: { $in: ["+100", "+300", "+999"] } })).toHaveLength(27);
    expect(await sameAsScan({ owner: owner.a })).toHaveLength(21);
    expect(await sameAsScan({ owner: { $in: [owner.a, owner.b] }, kind: "out" })).toHaveLength(10);
    expect(await sameAsScan({ phone: "+999" })).toHaveLength(0);
    // Not looked up by the index: a number, null (the document without the field), a regular expression.
    expect(await sameAsScan({ phone: 5 })).toHaveLength(1);
    expect(await sameAsScan({ phone: null })).toHaveLength(1);
    expect(await sameAsScan({ phone: /^\+1/u })).toHaveLength(14);
  });

  it("follows updates that move a document to another value, upserts and deletes", async () => {
    const upserted = new ObjectId();
    for (const collection of [indexed, scanned]) {
      await collection.updateMany({ phone: "+100", kind: "out" }, { $set: { phone: "+400" } });
      await collection.updateOne({ _id: upserted, phone: "+500" }, { $set: { at: 7, kind: "in" } }, { upsert: true });
      await collection.deleteMany({ phone: "+200", at: { $lt: 980 } });
    }
    expect(await sameAsScan({ phone: "+400" })).toHaveLength(4);
    expect(await sameAsScan({ phone: "+100" })).toHaveLength(10);
    expect(await sameAsScan({ phone: "+500" })).toHaveLength(1);
    expect(await sameAsScan({ phone: "+200" })).toHaveLength(7);
    // Old and new values together, and one value twice: each document once.
    expect(await sameAsScan({ phone: { $in: ["+100", "+400", "+400"] } })).toHaveLength(14);
  });

  it("turns itself off once a document holds an array there, where a value may match an element", async () => {
    const _id = new ObjectId();
    for (const collection of [indexed, scanned]) await collection.insertOne({ _id, phone: ["+600", "+100"], at: 3, kind: "in" });
    expect(await sameAsScan({ phone: "+600" })).toHaveLength(1);
    expect(await sameAsScan({ phone: "+100" })).toHaveLength(11);
  });
});

describe("reads beside writes", () => {
  it("answers every read of a document while updates add and remove its fields", async () => {
    // Its own client, without the driver's one retry of a read, so a dropped connection shows.
    const own = await MongoClient.connect(inject("mongoUri").replace(/\/[^/]*$/u, "/stand_in_index"), {
      retryReads: false,
      retryWrites: false,
    });
    try {
      const churn = own.db().collection("churn");
      const wide = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${i}`, `value ${i}`]));
      const { insertedId } = await churn.insertOne({ ...wide, n: 0 });
      const failures: string[] = [];
      let reads = 0;
      const deadline = Date.now() + 1500;
      const writer = async () => {
        for (let i = 0; Date.now() < deadline; i++) {
          await churn.updateOne({ _id: insertedId }, i % 2 ? { $unset: { extra: "" } } : { $set: { extra: i } });
        }
      };
      const reader = async () => {
        while (Date.now() < deadline) {
          const found = await churn.findOne({ _id: insertedId }).catch((error: Error) => void failures.push(error.message));
          if (found) reads += 1;
        }
      };
      await Promise.all([writer(), ...Array.from({ length: 4 }, reader)]);
      expect({ failures: failures.slice(0, 3), someReads: reads > 50 }).toEqual({ failures: [], someReads: true });
    } finally {
      await own.close();
    }
  });
});

/**
 * The ledger's chain (docs/ledger.md) rests on a compound unique index refusing the second of two
 * inserts of one (account, seq), however they race: on the memory backend (tests, the benchmark) and
 * on the H2 file (`npm start`, the chaos suite). Many clients, each with its own pool of connections,
 * insert every place at once; each place must be taken exactly once, the others refused with E11000.
 */
describe("a compound unique index under concurrent inserts", () => {
  async function race(uri: string): Promise<void> {
    const clients = await Promise.all(Array.from({ length: 4 }, () => MongoClient.connect(uri, { maxPoolSize: 16 })));
    try {
      const collections = clients.map((c) => c.db().collection("chain"));
      await collections[0]!.drop().catch(() => undefined);
      await collections[0]!.createIndex({ account: 1, seq: 1 }, { unique: true });
      const account = new ObjectId();
      const attempts = Array.from({ length: 30 }, (_, seq) =>
        Array.from({ length: 16 }, (_, n) =>
          collections[n % collections.length]!.insertOne({ account, seq, writer: n }).then(
            () => "taken" as const,
            (error: { code?: number }) => (error.code === 11000 ? ("refused" as const) : Promise.reject(error)),
          ),
        ),
      ).flat();
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter((o) => o === "taken")).toHaveLength(30);
      expect(outcomes.filter((o) => o === "refused")).toHaveLength(30 * 15);
      const stored = await collections[0]!.find({ account }).toArray();
      expect(new Set(stored.map((d) => d.seq)).size).toBe(30);
      expect(stored).toHaveLength(30);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  }

  it("takes each (account, seq) once on the memory backend", async () => {
    await race(inject("mongoUri").replace(/\/[^/]*$/u, "/stand_in_chain"));
  });

  it("takes each (account, seq) once on the H2 file backend", { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "stand-in-chain-"));
    const server = await startMongo({ dataFile: path.join(dir, "chain.mv") });
    try {
      await race(server.url);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
