/** Timing of ledger writes in tests: a fresh entry whose write lands only once something has looked for it. */
import { onTestFinished, vi } from "vitest";
import { LedgerEntry } from "../../shared/src/server/models/ledger-entry";

/**
 * Holds back the write of the ledger entry under `key` until a `findOne` for that key has answered
 * (without it, then): what a worker or a release sees when it reaches a fresh hold before the API's
 * write of its entry. Returns the spy on `findOne`; both spies go when the test ends.
 */
export function writeOnceLookedFor(key: string) {
  const collection = LedgerEntry.collection;
  const insert = collection.insertOne.bind(collection);
  const findOne = collection.findOne.bind(collection);
  let letThrough!: () => void;
  const looked = new Promise<void>((resolve) => (letThrough = resolve));
  const heldBack = vi.spyOn(collection, "insertOne").mockImplementation(async (doc, options) => {
    if (doc.key === key) await looked;
    return insert(doc, options);
  });
  const lookups = vi.spyOn(collection, "findOne").mockImplementation(((...args: Parameters<typeof findOne>) => {
    const result = findOne(...args);
    if ((args[0] as { key?: unknown } | undefined)?.key === key) void result.then(() => letThrough());
    return result;
  }) as typeof findOne);
  onTestFinished(() => {
    heldBack.mockRestore();
    lookups.mockRestore();
  });
  return lookups;
}

/**
 * The executor's own writes of the entries under the keys added to the returned set never arrive
 * (a lost connection, a process killed after its commit); a write of the entry recovered from its
 * marker does. The spy goes when the test ends.
 */
export function loseExecutorWrites(): Set<string> {
  const lost = new Set<string>();
  const collection = LedgerEntry.collection;
  const insert = collection.insertOne.bind(collection);
  const spy = vi
    .spyOn(collection, "insertOne")
    .mockImplementation((doc, options) =>
      lost.has(String(doc.key)) && !String(doc.details).endsWith("[recovered]")
        ? Promise.reject(new Error("connection lost"))
        : insert(doc, options),
    );
  onTestFinished(() => spy.mockRestore());
  return lost;
}

/**
 * The first write of the entry under `key` fails (the call answers with the write owed, tried again
 * every second); `beforeRetry` runs before each later write of it goes through. Returns how many
 * writes of it were tried so far. The spy goes when the test ends.
 */
export function failFirstWrite(key: string, beforeRetry: () => Promise<void> = async () => undefined): () => number {
  const collection = LedgerEntry.collection;
  const insert = collection.insertOne.bind(collection);
  let attempts = 0;
  const spy = vi.spyOn(collection, "insertOne").mockImplementation(async (doc, options) => {
    if (doc.key === key && ++attempts === 1) throw new Error("connection lost");
    if (doc.key === key) await beforeRetry();
    return insert(doc, options);
  });
  onTestFinished(() => spy.mockRestore());
  return () => attempts;
}
