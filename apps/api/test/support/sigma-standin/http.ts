import type { FastifyRequest } from "fastify";
import type { z } from "zod";

/**
 * An answer in the definition's ApiError shape `{message, code, requestId}`. The definition declares
 * only `default: ApiError` on every operation and lists no codes, so the status numbers and the `code`
 * strings below are the stand-in's choice.
 */
export class SigmaApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = codeFor(status),
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const CODES: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  415: "unsupported_media_type",
  429: "too_many_requests",
  500: "internal_error",
  502: "bad_gateway",
  503: "service_unavailable",
};

export function codeFor(status: number): string {
  return CODES[status] ?? "error";
}

export function badRequest(message: string): SigmaApiError {
  return new SigmaApiError(400, message);
}

export function notFound(what: string): SigmaApiError {
  return new SigmaApiError(404, `${what} not found`);
}

export function conflict(message: string): SigmaApiError {
  return new SigmaApiError(409, message);
}

type Query = Record<string, string | string[] | undefined>;

export function queryString(req: FastifyRequest, name: string): string | undefined {
  const value = (req.query as Query)[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Boolean query parameters: only `true` and `false` are accepted (the definition types them boolean). */
export function queryBoolean(req: FastifyRequest, name: string): boolean | undefined {
  const value = queryString(req, name);
  if (value === undefined) return undefined;
  if (value === "true") return true;
  if (value === "false") return false;
  throw badRequest(`${name} must be true or false`);
}

export function pathParam(req: FastifyRequest, name: string): string {
  return (req.params as Record<string, string>)[name] ?? "";
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    throw badRequest(`Invalid request body. ${where}${issue?.message ?? "invalid"}`);
  }
  return result.data;
}

// Page tokens are opaque strings ("Must be treated as an opaque string"), so they are encoded rather
// than the bare offset a client might be tempted to compute.
function encodeOffset(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString("base64url");
}

function decodeOffset(token: string, parameter: string): number {
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, "base64url").toString());
  if (!match) throw badRequest(`${parameter} is not a page token this service issued`);
  return Number(match[1]);
}

/** `limit`: "a maximum of 1,000 per request". A value outside 1..1000 is refused (the definition does not say what Sigma does). */
function parseLimit(value: string, parameter: string, max = 1000): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw badRequest(`${parameter} must be a whole number from 1 to ${max}`);
  return n;
}

export interface Page<T> {
  entries: T[];
  nextPage: string | null;
}

/** The `{entries, nextPage}` page (page/limit style); optional total/hasMore are left out. */
export function pageOf<T>(req: FastifyRequest, items: T[], defaultLimit: number): Page<T> {
  const limitParam = queryString(req, "limit");
  const pageParam = queryString(req, "page");
  const limit = limitParam === undefined ? defaultLimit : parseLimit(limitParam, "limit");
  const offset = pageParam === undefined || pageParam === "" ? 0 : decodeOffset(pageParam, "page");
  const entries = items.slice(offset, offset + limit);
  const next = offset + limit;
  return { entries, nextPage: next < items.length ? encodeOffset(next) : null };
}

/**
 * The v2 list answer for members and teams: a oneOf of a bare array and `{entries, nextPage}`. Sending
 * `limit` switches to the page form ("before June 2, 2026"); `alwaysPaged` plays the date after that.
 */
export function arrayOrPage<T>(
  req: FastifyRequest,
  items: T[],
  options: { alwaysPaged: boolean; defaultLimit: number },
): T[] | Page<T> {
  if (queryString(req, "limit") === undefined && !options.alwaysPaged) return items;
  const page = pageOf(req, items, options.defaultLimit);
  return { entries: page.entries, nextPage: page.nextPage };
}

/** The account-types style: pageToken/pageSize (default 50), `nextPageToken` absent on the last page. */
export function tokenPageOf<T>(req: FastifyRequest, items: T[]): { entries: T[]; nextPageToken?: string } {
  const sizeParam = queryString(req, "pageSize");
  const tokenParam = queryString(req, "pageToken");
  const size = sizeParam === undefined ? 50 : parseLimit(sizeParam, "pageSize");
  const offset = tokenParam === undefined || tokenParam === "" ? 0 : decodeOffset(tokenParam, "pageToken");
  const entries = items.slice(offset, offset + size);
  const next = offset + size;
  return next < items.length ? { entries, nextPageToken: encodeOffset(next) } : { entries };
}
