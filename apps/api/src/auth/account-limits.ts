import type { RateLimiterRes } from "rate-limiter-flexible";
import { RateLimiterDrizzle, RateLimiterRedis, RateLimiterUnion } from "rate-limiter-flexible";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { limiterCounters } from "../db/schema.ts";
import type { SharedStore } from "../lib/redis.ts";

/** What a guess may do: go on, or wait `retryAfterSeconds` (429). */
export type LimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Per-account limits on password and second-step guesses (ASVS 5.0 6.3.x; decision 008): at most
 * SIGNIN_MAX_FAILURES per SIGNIN_LOCK_WINDOW_SECONDS (10 per 15 minutes) and SIGNIN_MAX_FAILURES_PER_HOUR
 * (100) per hour. A guess is counted *before* it is evaluated, with one atomic upsert per window in the
 * database (rate-limiter-flexible's Drizzle store), so parallel guesses cannot outrun the count and every
 * instance on the database shares it. A success (or a password reset) clears the account's counts, so
 * what is left counts failures; the windows are fixed, so nobody is locked out for good.
 */
export interface AccountLimits {
  /** Counts one guess at `key`; refused once either window is used up. */
  take(key: string): Promise<LimitDecision>;
  /** Clears the counts of `key` (a successful sign-in, a password reset). */
  clear(key: string): Promise<void>;
  /** Gives back one guess counted by `take` that was never judged (the database was away: a 503). */
  giveBack(key: string): Promise<void>;
}

/**
 * `shared` (REDIS_URL): the counts live in Redis, with the database's as the insurance while Redis is
 * down (decision 009); without it, in the database.
 */
export function createAccountLimits(
  db: Database,
  config: AppConfig,
  kind: string,
  shared?: SharedStore,
): AccountLimits {
  const stores = [
    { points: config.signInMaxFailures, duration: config.signInLockWindowSeconds },
    { points: config.signInMaxFailuresPerHour, duration: 3600 },
  ].map(({ points, duration }, i) => {
    const inDatabase = new RateLimiterDrizzle({
      storeClient: db,
      schema: limiterCounters,
      keyPrefix: `${kind}:${i}`,
      points,
      duration,
      // Expired rows are reused by the next upsert; the library's own sweep timer would outlive the app.
      clearExpiredByTimeout: false,
    });
    if (!shared) return { window: inDatabase, all: [inDatabase] };
    const inRedis = new RateLimiterRedis({
      storeClient: shared.client,
      keyPrefix: `${shared.prefix}${kind}:${i}`,
      points,
      duration,
      insuranceLimiter: inDatabase,
    });
    return { window: inRedis, all: [inRedis, inDatabase] };
  });
  const windows = stores.map((s) => s.window);
  const union = new RateLimiterUnion(...windows);
  return {
    async take(key) {
      try {
        await union.consume(key);
        return { allowed: true };
      } catch (refusal) {
        // The union answers each refusing window's result, or the store's error (never a guess let through).
        const results = Object.values(refusal as Record<string, RateLimiterRes | Error>);
        const error = results.find((r) => r instanceof Error);
        if (error) throw error;
        const wait = Math.max(...results.map((r) => (r as RateLimiterRes).msBeforeNext));
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      }
    },
    async giveBack(key) {
      await Promise.all(windows.map((w) => w.reward(key, 1)));
    },
    async clear(key) {
      // Every store: a count taken while Redis was down stays in the database.
      await Promise.all(stores.flatMap((s) => s.all).map((w) => w.delete(key)));
    },
  };
}
