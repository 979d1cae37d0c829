import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  RETRY_AFTER_SECONDS,
  unavailableAnswer,
  unavailableCause,
  type DependencyFault,
  type MisconfigurationError,
} from "./dependency-faults.ts";

/**
 * What went wrong while one request was answered, wherever it happened (issue 25): the error handler's
 * error, and what Better Auth logged inside its handlers and hooks before it answered 500 with a generic
 * body. Every answer of 500 or more is then explained once, at error level, with the request id, the route
 * and these causes; and a cause that is a database away turns Better Auth's 500 into the portal's 503.
 */
export interface FaultNote {
  /** Where it was seen: "handler", "better-auth"… */
  source: string;
  message: string;
  error?: unknown;
}

interface RequestFaults {
  notes: FaultNote[];
  /** What to undo if the request is answered "unavailable" (a guess counted but never judged). */
  undo: Array<() => Promise<void>>;
}

const inScope = new AsyncLocalStorage<RequestFaults>();
const byRequest = new WeakMap<object, RequestFaults>();

/** Notes a cause for the request being answered; false outside any request (a background task). */
export function noteFault(note: FaultNote): boolean {
  const faults = inScope.getStore();
  if (!faults) return false;
  faults.notes.push(note);
  return true;
}

/**
 * Registers what to undo should the request end as "the database is away" (503): the request changed
 * something before it could be judged (the sign-in lock counted a guess). Outside a request: nothing.
 */
export function undoIfUnavailable(undo: () => Promise<void>): void {
  inScope.getStore()?.undo.push(undo);
}

/** Runs what was registered to undo, now that `request` is answered 503; an undo that fails is logged. */
export async function settleUnavailable(request: FastifyRequest): Promise<void> {
  const faults = byRequest.get(request);
  if (!faults) return;
  const undo = faults.undo.splice(0);
  for (const step of undo) {
    await step().catch((error: unknown) =>
      faults.notes.push({ source: "undo", message: "could not undo a step of the request", error }),
    );
  }
}

/**
 * The 503 of a request that met the database away (or a setting that does not fit it): what it registered to
 * undo is undone, and the answer carries Retry-After and the usual error body.
 */
export async function answerUnavailable(
  request: FastifyRequest,
  reply: FastifyReply,
  cause: DependencyFault | MisconfigurationError,
): Promise<FastifyReply> {
  await settleUnavailable(request);
  return reply
    .status(503)
    .header("retry-after", String(RETRY_AFTER_SECONDS))
    .send({ ...unavailableAnswer(cause, request.method), requestId: request.id });
}

/** Notes a cause for `request` where the request is at hand (the error handler). */
export function noteRequestFault(request: FastifyRequest, note: FaultNote): void {
  byRequest.get(request)?.notes.push(note);
}

/** The causes noted for `request` so far. */
export function faultsOf(request: FastifyRequest): FaultNote[] {
  return byRequest.get(request)?.notes ?? [];
}

/** The first noted cause that means "unavailable" (database away, or a setting the database refuses). */
export function notedUnavailable(request: FastifyRequest): DependencyFault | MisconfigurationError | null {
  for (const note of faultsOf(request)) {
    const cause = unavailableCause(note.error) ?? unavailableCause({ message: note.message });
    if (cause) return cause;
  }
  return null;
}

/** An error as the log shows it: its kind, words, code and where it was thrown, and its cause's. */
export function errorFields(error: unknown, depth = 0): Record<string, unknown> | string {
  if (!(error instanceof Error)) return String(error);
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return {
    type: error.name,
    message: error.message,
    ...(code !== undefined ? { code } : {}),
    stack: error.stack,
    ...(cause !== undefined && depth < 3 ? { cause: errorFields(cause, depth + 1) } : {}),
  };
}

const describe = (note: FaultNote) => ({
  source: note.source,
  message: note.message,
  ...(note.error !== undefined ? { err: errorFields(note.error) } : {}),
});

/**
 * Opens the request's scope (before any other hook: registered first) and, once it is answered, writes
 * the one error line of a 5xx; causes noted for an answer under 500 (Better Auth logging a refusal at error
 * level) are written at warn level.
 */
export function useRequestFaults(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => {
    const faults: RequestFaults = { notes: [], undo: [] };
    byRequest.set(request, faults);
    inScope.run(faults, done);
  });
  // Body parsing runs in the socket's callbacks, outside the scope opened above: entered again for the handler.
  app.addHook("preHandler", (request, _reply, done) => {
    const faults = byRequest.get(request);
    if (faults) inScope.run(faults, done);
    else done();
  });
  app.addHook("onResponse", async (request, reply) => {
    const notes = faultsOf(request);
    const route = request.routeOptions.url ?? null;
    if (reply.statusCode >= 500) {
      request.log.error(
        {
          route,
          method: request.method,
          statusCode: reply.statusCode,
          causes: notes.length > 0 ? notes.map(describe) : [{ source: "unknown", message: "no cause noted" }],
        },
        `answered ${reply.statusCode}: ${notes[0]?.message ?? "no cause noted"}`,
      );
    } else if (notes.length > 0) {
      request.log.warn(
        { route, statusCode: reply.statusCode, causes: notes.map(describe) },
        notes[0]!.message,
      );
    }
  });
}
