/**
 * The MongoDB-compatible stand-in's launcher (scripts/mongo-server/MongoServerMain.java) lets a unique
 * index serve queries that name its fields among others. These queries must find what a scan of the
 * whole collection finds: the shapes the index can look up exactly, and the ones it cannot (which
 * fall back to the scan).
 */
import { MongoClient, ObjectId, type Collection, type Document } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

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
