import type { BetterAuthOptions } from "better-auth";
import {
  RateLimiterDrizzle,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { FastifyReply, FastifyRequest } from "fastify";
import { recordAudit } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { AppError } from "../lib/errors.ts";
import { limiterCounters } from "../db/schema.ts";
import type { SharedStore } from "../lib/redis.ts";

type RateLimitStorage = NonNullable<NonNullable<BetterAuthOptions["rateLimit"]>["customStorage"]>;

/** What a counted request may do: go on, or wait `retryAfterSeconds` (429). */
export type IpDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A per-address limit of `points` requests per `duration` seconds, counted atomically in the database
 * (rate-limiter-flexible's Drizzle store: every instance on the database shares it), or in Redis when several
 * instances share one (decision 009), with the database as insurance while Redis is down.
 */
export function ipLimiter(
  db: Database,
  shared: SharedStore | undefined,
  name: string,
  points: number,
  duration: number,
): RateLimiterAbstract {
  const inDatabase = new RateLimiterDrizzle({
    storeClient: db,
    schema: limiterCounters,
    keyPrefix: name,
    points,
    duration,
    // Expired rows are reused by the next upsert; the library's own sweep timer would outlive the app.
    clearExpiredByTimeout: false,
  });
  if (!shared) return inDatabase;
  return new RateLimiterRedis({
    storeClient: shared.client,
    keyPrefix: `${shared.prefix}${name}`,
    points,
    duration,
    insuranceLimiter: inDatabase,
  });
}

/** Counts one request of `key`; a store that cannot be reached at all throws (never a request let through). */
export async function takeIp(limiter: RateLimiterAbstract, key: string): Promise<IpDecision> {
  try {
    await limiter.consume(key);
    return { allowed: true };
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
  }
}

/**
 * Better Auth's per-IP limits (AUTH_IP_LIMIT_PER_MINUTE and its own rules) counted in Redis when several
 * instances share one: Better Auth's atomic `consume` is one `ipLimiter` per rule, so instances share one
 * count and parallel requests cannot outrun it. Without REDIS_URL Better Auth keeps its own database
 * storage, whose conditional update is atomic too.
 */
export function sharedIpLimitStorage(db: Database, shared: SharedStore): RateLimitStorage {
  // One limiter per rule (window and maximum); Better Auth has a handful of rules.
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = (rule: { window: number; max: number }) => {
    const name = `ip:${rule.max}:${rule.window}`;
    let limiter = limiters.get(name);
    if (!limiter) {
      limiter = ipLimiter(db, shared, name, rule.max, rule.window);
      limiters.set(name, limiter);
    }
    return limiter;
  };
  return {
    // Only the atomic `consume` is used; Better Auth falls back to get/set for storages without it.
    get: async () => null,
    set: async () => undefined,
    async consume(key, rule) {
      const decision = await takeIp(limiterFor(rule), key);
      return decision.allowed
        ? { allowed: true, retryAfter: null }
        : { allowed: false, retryAfter: decision.retryAfterSeconds };
    },
  };
}

/**
 * An `onRequest` hook for public routes outside Better Auth (the invitation page, "This wasn't me"): each address
 * may make `perMinute` calls a minute under `name`, counted before the body is read; a refusal answers 429 with
 * Retry-After and is audited as `auth.request_refused`.
 */
export function perAddressLimit(
  db: Database,
  shared: SharedStore | undefined,
  name: string,
  perMinute: number,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const limiter = ipLimiter(db, shared, name, perMinute, 60);
  return async (request, reply) => {
    const decision = await takeIp(limiter, request.ip);
    if (decision.allowed) return;
    await recordAudit(db, {
      action: "auth.request_refused",
      outcome: "rate_limited",
      details: { path: request.routeOptions.url ?? null, status: 429 },
      ip: request.ip,
      userAgent: request.headers["user-agent"] ?? null,
      requestId: request.id,
    });
    reply.header("retry-after", String(decision.retryAfterSeconds));
    throw new AppError(
      429,
      `Too many requests from your address. Try again in ${decision.retryAfterSeconds} seconds.`,
      "RATE_LIMITED",
    );
  };
}
