/**
 * Which errors mean "a service the answer needs is away for a moment" (issue 25): the database restarting,
 * shutting down, refusing or dropping connections, or the pool timing out. Such a request is answered 503
 * with Retry-After, never 500; the load balancer or the person may simply try again.
 *
 * `reached` says whether the statement may have reached the server before the connection went: a write cut
 * off then may or may not have committed, and the answer says so instead of "nothing was changed".
 */
export interface DependencyFault {
  dependency: "database" | "redis";
  reached: boolean;
  /** The underlying error's own words, for the log (never sent to the client). */
  detail: string;
}

/** Seconds a client is asked to wait before trying again (a restart takes a few). */
export const RETRY_AFTER_SECONDS = 5;

// PostgreSQL SQLSTATEs: class 08 (connection exception), operator intervention, too many connections.
const NOT_REACHED_STATES = new Set(["08001", "08004", "57P03", "53300", "08P01"]);
const REACHED_STATES = new Set(["57P01", "57P02", "57P05", "08000", "08003", "08006", "08007"]);

// Node's socket errors: before a connection exists (nothing was sent), or after (something may have been).
const NOT_REACHED_SYSCALLS = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
const REACHED_SYSCALLS = new Set(["ECONNRESET", "EPIPE", "ETIMEDOUT"]);

// node-postgres and its pool say these in words only.
const NOT_REACHED_MESSAGES = [
  "timeout exceeded when trying to connect",
  "Connection terminated due to connection timeout",
  "Client has encountered a connection error and is not queryable",
  "Cannot use a pool after calling end on the pool",
];
const REACHED_MESSAGES = ["Connection terminated unexpectedly", "Connection terminated"];

// ioredis, with no offline queue: commands refused while it reconnects.
const REDIS_MESSAGES = [
  "Connection is closed.",
  "Stream isn't writeable",
  "Reached the max retries per request",
];

/** The dependency fault behind `error` (its causes and aggregated errors included), or null. */
export function dependencyFault(error: unknown, depth = 0): DependencyFault | null {
  if (!error || typeof error !== "object" || depth > 6) return null;
  const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
  const text = typeof message === "string" ? message : "";
  const fault = (dependency: DependencyFault["dependency"], reached: boolean) => ({
    dependency,
    reached,
    detail: `${typeof code === "string" ? `${code} ` : ""}${text || String(name ?? "error")}`,
  });
  if (name === "MaxRetriesPerRequestError" || REDIS_MESSAGES.some((m) => text.startsWith(m)))
    return fault("redis", false);
  if (typeof code === "string") {
    if (NOT_REACHED_STATES.has(code) || NOT_REACHED_SYSCALLS.has(code)) return fault("database", false);
    if (REACHED_STATES.has(code) || REACHED_SYSCALLS.has(code)) return fault("database", true);
  }
  if (NOT_REACHED_MESSAGES.some((m) => text.includes(m))) return fault("database", false);
  if (REACHED_MESSAGES.some((m) => text.startsWith(m))) return fault("database", true);
  const nested = [
    (error as { cause?: unknown }).cause,
    ...(Array.isArray((error as { errors?: unknown }).errors) ? (error as { errors: unknown[] }).errors : []),
  ];
  for (const inner of nested) {
    const found = dependencyFault(inner, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * A setting that does not fit what the database holds (another audit key, another auth secret): refused at
 * start; met while running (the database changed under the instance), the request is answered 503 and
 * `/readyz` turns not-ready with the same words.
 */
export class MisconfigurationError extends Error {
  constructor(
    /** The environment setting to look at, e.g. AUDIT_KEY. */
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = "MisconfigurationError";
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The 503 answer for a fault: the error body's words and code, by whether a write may have gone through. */
export function unavailableAnswer(
  fault: DependencyFault | MisconfigurationError,
  method: string,
): { error: string; code: "DEPENDENCY_UNAVAILABLE" | "WRITE_OUTCOME_UNKNOWN" } {
  if (fault instanceof MisconfigurationError) {
    return {
      error: "This part of the portal is unavailable right now. Please try again in a moment.",
      code: "DEPENDENCY_UNAVAILABLE",
    };
  }
  if (fault.reached && !SAFE_METHODS.has(method)) {
    return {
      error:
        "The connection to the database was lost while saving: your change may or may not have been saved. " +
        "Please check, then try again if it is not there.",
      code: "WRITE_OUTCOME_UNKNOWN",
    };
  }
  return {
    error:
      "The portal cannot reach its database right now; nothing was changed. Please try again in a moment.",
    code: "DEPENDENCY_UNAVAILABLE",
  };
}

/** The fault or misconfiguration behind an error, or null for anything else. */
export function unavailableCause(error: unknown): DependencyFault | MisconfigurationError | null {
  return misconfiguration(error) ?? dependencyFault(error);
}

function misconfiguration(error: unknown, depth = 0): MisconfigurationError | null {
  if (error instanceof MisconfigurationError) return error;
  if (!error || typeof error !== "object" || depth > 6) return null;
  return misconfiguration((error as { cause?: unknown }).cause, depth + 1);
}
