import type { BetterAuthOptions } from "better-auth";
import { RateLimiterDrizzle, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../db/client.ts";
import { limiterCounters } from "../db/schema.ts";
import type { SharedStore } from "../lib/redis.ts";

type RateLimitStorage = NonNullable<NonNullable<BetterAuthOptions["rateLimit"]>["customStorage"]>;

/**
 * Better Auth's per-IP limits (AUTH_IP_LIMIT_PER_MINUTE and its own rules) counted in Redis when several
 * instances share one (decision 009): each request is counted atomically with rate-limiter-flexible's
 * Redis store, so instances share one count and parallel requests cannot outrun it. While Redis is down the
 * same counts go to the database (the library's insurance limiter, an atomic upsert). Without REDIS_URL
 * Better Auth keeps its own database storage, whose conditional update is atomic too.
 */
export function sharedIpLimitStorage(db: Database, shared: SharedStore): RateLimitStorage {
  // One limiter per rule (window and maximum); Better Auth has a handful of rules.
  const limiters = new Map<string, RateLimiterRedis>();
  const limiterFor = (rule: { window: number; max: number }) => {
    const name = `ip:${rule.max}:${rule.window}`;
    let limiter = limiters.get(name);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: shared.client,
        keyPrefix: `${shared.prefix}${name}`,
        points: rule.max,
        duration: rule.window,
        insuranceLimiter: new RateLimiterDrizzle({
          storeClient: db,
          schema: limiterCounters,
          keyPrefix: name,
          points: rule.max,
          duration: rule.window,
          clearExpiredByTimeout: false,
        }),
      });
      limiters.set(name, limiter);
    }
    return limiter;
  };
  return {
    // Only the atomic `consume` is used; Better Auth falls back to get/set for storages without it.
    get: async () => null,
    set: async () => undefined,
    async consume(key, rule) {
      try {
        await limiterFor(rule).consume(key);
        return { allowed: true, retryAfter: null };
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfter: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      }
    },
  };
}
