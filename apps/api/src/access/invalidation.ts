import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppConfig } from "../config.ts";
import type { SharedStore } from "../lib/redis.ts";
import { SAFE_METHODS, type CachedPrincipal } from "../plugins/authenticate.ts";
import { AccessCache } from "./access-cache.ts";
import type { EmbedIdentity } from "./embed-identity.ts";

/**
 * The access caches of decision 005 and their invalidation: verified sessions and viewing decisions are
 * reused for a few seconds, and every request that may change them clears both before it runs and again
 * before it answers. With other instances (REDIS_URL) a cache is used only while their invalidations can
 * reach it.
 */
export function useAccessCaches(app: FastifyInstance, config: AppConfig, shared: SharedStore | undefined) {
  const cacheOptions = {
    ttlSeconds: config.accessCacheSeconds,
    ...(shared && { available: () => shared.healthy }),
  };
  const principals = new AccessCache<CachedPrincipal>(cacheOptions);
  const identities = new AccessCache<EmbedIdentity>(cacheOptions);
  const dropCaches = () => {
    principals.invalidate();
    identities.invalidate();
  };
  shared?.onInvalidation(dropCaches);
  const invalidateAccess = async (request: FastifyRequest) => {
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config?.keepsAccess) return;
    dropCaches();
    shared?.publishInvalidation();
  };
  app.addHook("onRequest", invalidateAccess);
  app.addHook("onSend", invalidateAccess);
  return { principals, identities };
}
