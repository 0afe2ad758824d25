/**
 * Backups (issue: survive crashes): a backup of the running stack, restored into a fresh data
 * directory the way `npm run restore` does it, holds the same users, balances and ledger, and the
 * embedded servers started again on that directory still have them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { backup, restore, startEmbedded } from "../../scripts/backup";
import { giveCoins, newUser } from "../support/client";

let work: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "storefront-backup-"));
  await mongoose.connect(inject("mongoUri"));
});

afterAll(async () => {
  await mongoose.disconnect();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A user's account as the backup must keep it: balance and every ledger entry. */
async function account(db: mongoose.mongo.Db, id: string) {
  const _id = new mongoose.Types.ObjectId(id);
  const user = await db.collection("users").findOne({ _id }, { projection: { phone: 1, coins: 1, passwordHash: 1 } });
  const ledger = await db
    .collection("ledger")
    .find({ userId: _id }, { projection: { seq: 1, key: 1, kind: 1, amount: 1, balanceAfter: 1 } })
    .sort({ _id: 1 })
    .toArray();
  return { user, ledger };
}

describe("npm run backup / npm run restore", () => {
  it("restores users, balances and ledger into a fresh data directory", { timeout: 120_000 }, async () => {
    const users = await Promise.all([newUser(), newUser(), newUser()]);
    await Promise.all(users.map((u, i) => giveCoins(u.id, 50 + i * 10)));
    const db = mongoose.connection.db!;
    const before = await Promise.all(users.map((u) => account(db, u.id)));
    for (const a of before) expect(a.ledger.length).toBeGreaterThan(0);
    // This test's users' sessions: other suites end theirs while this one runs.
    const source = new Redis(inject("redisUrl"));
    const sids = (await Promise.all(users.map((u) => source.smembers(`user-sessions:${u.id}`)))).flat();
    source.disconnect();
    const sessionKeys = sids.map((sid) => `sess:${sid}`);
    expect(sessionKeys.length).toBeGreaterThanOrEqual(users.length);

    const file = path.join(work, "backup.jsonl.gz");
    const written = await backup({ mongoUri: inject("mongoUri"), redisUrl: inject("redisUrl") }, file);
    expect(written.documents).toBeGreaterThan(0);

    // Restore into a fresh data directory, as `DATA_DIR=<dir> npm run restore <file>` does.
    const dataDir = path.join(work, "data");
    const target = await startEmbedded(dataDir);
    try {
      const restored = await restore(target, file);
      expect(restored).toEqual(written);
    } finally {
      await target.stop();
    }

    // Started again on that directory, the servers still hold the data: it is on disk.
    const again = await startEmbedded(dataDir);
    const conn = await mongoose.createConnection(again.mongoUri).asPromise();
    const redis = new Redis(again.redisUrl);
    try {
      const after = await Promise.all(users.map((u) => account(conn.db!, u.id)));
      expect(after).toEqual(before);
      for (const a of after) expect(a.user!.coins).toBe(a.ledger.reduce((s, e) => s + e.amount, 0));
      // Sessions come back too: a restored user stays signed in.
      expect(await redis.exists(...sessionKeys)).toBe(sessionKeys.length);
    } finally {
      redis.disconnect();
      await conn.close();
      await again.stop();
    }
  });
});
