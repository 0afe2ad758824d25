/**
 * Per-process caches of what nearly every call reads and administrators rarely change (the wallet
 * tables, a user's active flag, an administrator's role, the SMS gateways), kept true across
 * processes through one Redis pub/sub channel. The process that changes a cached record publishes
 * the change after its database write; every process, itself included, drops that entry before
 * its next read.
 *
 * A cache is used only while this process is subscribed: before the subscription is confirmed,
 * while the subscriber is disconnected (a change published meanwhile would be missed) and in
 * processes that never start the bus (scripts, tests), every read goes to the database. Each
 * (re)subscription starts from empty caches.
 */
import type { Redis } from "ioredis";

export const CACHE_CHANNEL = "storefront:cache";

/** What a change names: a whole table, or one record of a kind (`key`), or every record of it. */
export type CacheTopic = "wallet-config" | "user" | "admin" | "sms-gateways";
interface CacheMessage {
  topic: CacheTopic;
  key?: string;
}

type Listener = (key: string | undefined) => void;

const listeners = new Map<CacheTopic, Set<Listener>>();
const flushers = new Set<() => void>();
let publisher: Redis | null = null;
let subscriber: Redis | null = null;
let live = false;

/** True while changes published by any process reach this one (caches may serve reads). */
export function cacheLive(): boolean {
  return live;
}

function flushAll(): void {
  for (const flush of flushers) flush();
}

/**
 * Subscribes this process (API or worker) to the change channel over its own connection
 * (a subscribed ioredis client can do nothing else). Resolves once subscribed.
 */
export async function startCacheBus(redis: Redis): Promise<void> {
  if (subscriber) return;
  publisher = redis;
  const sub = redis.duplicate({ commandTimeout: undefined });
  subscriber = sub;
  sub.on("error", () => undefined);
  // A change published while the subscriber was away is lost: the caches stop serving at once,
  // and serve again, empty, once the channel is confirmed subscribed on the new connection.
  sub.on("close", () => {
    live = false;
    flushAll();
  });
  sub.on("ready", () => {
    if (live || subscriber !== sub) return;
    void sub
      .subscribe(CACHE_CHANNEL)
      .then(() => {
        flushAll();
        live = subscriber === sub;
      })
      .catch(() => undefined);
  });
  sub.on("message", (_channel: string, raw: string) => {
    let message: CacheMessage;
    try {
      message = JSON.parse(raw) as CacheMessage;
    } catch {
      flushAll();
      return;
    }
    for (const listener of listeners.get(message.topic) ?? []) listener(message.key);
  });
  await sub.subscribe(CACHE_CHANNEL);
  live = true;
}

export async function stopCacheBus(): Promise<void> {
  live = false;
  flushAll();
  const sub = subscriber;
  subscriber = null;
  publisher = null;
  await sub?.quit().catch(() => sub.disconnect());
}

/**
 * Tells every process that `topic` (or its record `key`) changed. Called after the database
 * write; this process's own entry is dropped at once, before the publish goes out.
 */
export async function publishCacheChange(topic: CacheTopic, key?: string): Promise<void> {
  for (const listener of listeners.get(topic) ?? []) listener(key);
  if (publisher) await publisher.publish(CACHE_CHANNEL, JSON.stringify({ topic, key } satisfies CacheMessage));
}

/** Calls `listener` whenever `topic` changes (in this process or, over the channel, in another). */
export function onCacheChange(topic: CacheTopic, listener: Listener): void {
  if (!listeners.has(topic)) listeners.set(topic, new Set());
  listeners.get(topic)!.add(listener);
}

/**
 * A read-through cache of one kind of record, by key. `load` reads the database; a `null` result
 * is cached too (an unknown id stays unknown until a change names it). At most `max` entries: the
 * oldest goes first.
 */
export class RecordCache<T> {
  private readonly entries = new Map<string, Promise<T>>();

  constructor(
    topic: CacheTopic,
    private readonly load: (key: string) => Promise<T>,
    private readonly max = 10_000,
  ) {
    const forget: Listener = (key) => (key === undefined ? this.entries.clear() : this.entries.delete(key));
    if (!listeners.has(topic)) listeners.set(topic, new Set());
    listeners.get(topic)!.add(forget);
    flushers.add(() => this.entries.clear());
  }

  get(key: string): Promise<T> {
    if (!live) return this.load(key);
    const hit = this.entries.get(key);
    if (hit) return hit;
    const loading = this.load(key);
    this.entries.set(key, loading);
    // A failed read is not remembered; neither is one that a change overtook while it ran.
    loading.catch(() => {
      if (this.entries.get(key) === loading) this.entries.delete(key);
    });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return loading;
  }
}
