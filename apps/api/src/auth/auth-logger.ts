import type { BetterAuthOptions } from "better-auth";
import { APIError, isAPIError } from "better-auth/api";
import type { FastifyBaseLogger } from "fastify";
import type { AppConfig } from "../config.ts";
import { errorFields, noteFault } from "../lib/request-faults.ts";

type Logger = NonNullable<BetterAuthOptions["logger"]>;
type AuthLogLevel = NonNullable<Logger["level"]>;

const LEVELS: Record<AppConfig["logLevel"], AuthLogLevel | null> = {
  trace: "debug",
  debug: "debug",
  info: "info",
  warn: "warn",
  error: "error",
  fatal: "error",
  silent: null,
};

/**
 * Better Auth's logger, through the portal's (pino, at LOG_LEVEL) instead of the console (issue 25). An
 * error it logs while answering a request is kept with that request (lib/request-faults.ts): written once
 * with the request id, the route and the answer's status, and read to tell a database away (503) from a
 * fault (500). Outside a request (start-up, background work) it is written at once.
 */
export function betterAuthLogger(log: FastifyBaseLogger | undefined, level: AppConfig["logLevel"]): Logger {
  const authLevel = LEVELS[level];
  if (!log || !authLevel) return { disabled: true };
  return {
    level: authLevel,
    disableColors: true,
    log: (at, message, ...args: unknown[]) => {
      const error = args.find((arg) => arg instanceof Error) ?? args[0];
      if (at === "error" && noteFault({ source: "better-auth", message, error })) return;
      log[at](
        { source: "better-auth", ...(args.length > 0 ? { args: args.map((a) => errorFields(a)) } : {}) },
        message,
      );
    },
  };
}

/**
 * Better Auth's handling of an error its endpoint or a hook throws: kept with the request (or logged at once
 * outside one), and answered as its generic 500 — instead of its router printing `# SERVER_ERROR` to the
 * console, outside the structured log.
 */
export function betterAuthErrors(
  log: FastifyBaseLogger | undefined,
): NonNullable<BetterAuthOptions["onAPIError"]> {
  return {
    onError: (error) => {
      if (isAPIError(error) && error.status !== "INTERNAL_SERVER_ERROR") return;
      const message = error instanceof Error ? error.message : String(error);
      if (!noteFault({ source: "better-auth", message, error })) {
        log?.error({ source: "better-auth", err: errorFields(error) }, message);
      }
      if (!isAPIError(error)) throw new APIError("INTERNAL_SERVER_ERROR");
    },
  };
}
