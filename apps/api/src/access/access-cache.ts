import { LRUCache } from "lru-cache";

/**
 * Short-lived memory of who a request is and what they may see, so the hot viewing path
 * (provision-and-embed) does not read the session and the assignments from the database each time.
 * docs/decisions/005-access-cache.md explains the trade.
 *
 * Correctness rests on two rules:
 * - Every change that can alter a session or an access decision goes through an unsafe HTTP method
 *   of this process, and the app calls `invalidate()` before that request runs and again before its
 *   answer is sent (after its transaction committed). So once an admin sees "saved", no later request
 *   here uses what was cached before.
 * - A value read from the database is stored only if no invalidation happened while it was read
 *   (`read()` compares the epoch), so a slow read that saw the old rows cannot refill the cache.
 *
 * Other processes (another instance, the admin:create command) are bounded by the time to live; with
 * REDIS_URL, instances publish their invalidations to each other and use the cache only while that
 * channel is up (`available`, decision 009).
 */
export class AccessCache<V extends object> {
  readonly #entries: LRUCache<string, V>;
  readonly #ttlMs: number;
  readonly #available: () => boolean;
  #epoch = 0;

  constructor(options: { ttlSeconds: number; max?: number; available?: () => boolean }) {
    this.#ttlMs = Math.max(0, options.ttlSeconds * 1000);
    this.#available = options.available ?? (() => true);
    this.#entries = new LRUCache<string, V>({ max: options.max ?? 10_000, ttl: this.#ttlMs || 1 });
  }

  get enabled(): boolean {
    return this.#ttlMs > 0 && this.#available();
  }

  /**
   * The cached value for `key`, else `load()`'s, remembered for the time to live (capped by
   * `expiresAt(value)` when given). `null` answers are never cached: a refused request always asks again.
   */
  async read(
    key: string,
    load: () => Promise<V | null>,
    expiresAt?: (value: V) => number,
  ): Promise<V | null> {
    if (!this.enabled) return load();
    const hit = this.#entries.get(key);
    if (hit) return hit;
    const epoch = this.#epoch;
    const value = await load();
    if (value && epoch === this.#epoch) {
      const ttl = Math.min(this.#ttlMs, (expiresAt?.(value) ?? Infinity) - Date.now());
      if (ttl > 0) this.#entries.set(key, value, { ttl });
    }
    return value;
  }

  invalidate(): void {
    this.#epoch++;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
