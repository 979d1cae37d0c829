import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";

/**
 * The shared store of several portal instances (issue: many instances, one truth). With REDIS_URL unset
 * none of this exists and the portal behaves as one process. With it: the limiters count in Redis
 * (falling back to the database while Redis is down) and every access change is published, so every
 * instance drops its access cache at once (decision 009).
 */
export interface SharedStore {
  /** Commands (limiters). Fails fast while disconnected (no offline queue): callers fall back. */
  client: Redis;
  /** Put before every key and channel of this portal (REDIS_KEY_PREFIX). */
  prefix: string;
  /** True while both connections are up; the access caches are used only then (fail closed). */
  readonly healthy: boolean;
  /** Publishes an access change to the other instances. */
  publishInvalidation(): void;
  /** Calls `listener` for another instance's access change, and whenever the connection was lost. */
  onInvalidation(listener: () => void): void;
  close(): Promise<void>;
}

export function createSharedStore(url: string, prefix: string, log: FastifyBaseLogger): SharedStore {
  const instance = randomUUID();
  const channel = `${prefix}access-invalidations`;
  const options = { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false } as const;
  const client = new Redis(url, options);
  // Subscribed explicitly on every (re)connection: it counts as up only once its SUBSCRIBE is confirmed,
  // so no invalidation can be missed while the cache is in use.
  const subscriber = new Redis(url, { maxRetriesPerRequest: null, autoResubscribe: false });
  const listeners: Array<() => void> = [];
  const up = { client: false, subscriber: false };
  let degradedSince: number | null = Date.now();
  // A change made while this instance could not publish is published as soon as it can (other instances
  // may have kept their caches if only this one lost Redis; the time to live bounds that window).
  let unpublished = false;
  const publish = () => {
    unpublished = true;
    if (!up.client) return;
    unpublished = false;
    void client.publish(channel, instance).catch(() => {
      unpublished = true;
    });
  };

  const notify = () => listeners.forEach((listener) => listener());
  const track = (name: keyof typeof up, connection: Redis, whenReady = async () => {}) => {
    connection.on("ready", async () => {
      try {
        await whenReady();
      } catch {
        return; // the connection dropped again: "close" follows
      }
      up[name] = true;
      if (name === "client" && unpublished) publish();
      if (up.client && up.subscriber && degradedSince !== null) {
        log.info({ downMs: Date.now() - degradedSince }, "shared store (Redis) reachable");
        degradedSince = null;
      }
      // Whatever was published while this connection was away is lost: start from an empty cache.
      notify();
    });
    connection.on("close", () => {
      if (up[name]) log.warn("shared store (Redis) unreachable: access caches off, limits in the database");
      up[name] = false;
      degradedSince ??= Date.now();
      notify();
    });
    connection.on("error", (error: Error) => log.debug({ err: error }, "shared store (Redis) error"));
  };
  track("client", client);
  track("subscriber", subscriber, async () => {
    await subscriber.subscribe(channel);
  });
  subscriber.on("message", (_channel: string, from: string) => {
    if (from !== instance) notify();
  });

  return {
    client,
    prefix,
    get healthy() {
      return up.client && up.subscriber;
    },
    publishInvalidation: publish,
    onInvalidation(listener) {
      listeners.push(listener);
    },
    async close() {
      client.disconnect();
      subscriber.disconnect();
    },
  };
}
