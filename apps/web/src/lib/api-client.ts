import { config, safeParse } from "zod/mini";
import type { core } from "zod/mini";

import { ZErrorResponseSchema } from "@portal/contracts";

import { toRequestError } from "./errors";
import type { AppRequestError } from "./errors";

// zod compiles its object parsers with `new Function` when the page allows it. The portal's CSP (script-src
// 'self') does not, so zod's probe for it only cost every page a refused eval and a CSP violation; jitless
// skips the probe (and the fast path the CSP rules out anyway). It holds for the full zod API too.
config({ jitless: true });

export const PORTAL_UNREACHABLE = "The portal could not be reached. Check your connection and try again.";

type TSendOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON; a file (`Blob`) is sent as it is, with the Content-Type given in `headers`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Shown when the server gives no readable message. */
  fallbackError: string;
  signal?: AbortSignal | undefined;
  /** `no-store` for an answer that must never come from the browser's cache (a one-time URL). */
  cache?: RequestCache;
};

type TApiRequest<TSchema extends core.$ZodType> = TSendOptions & {
  /** Validates the response body; the parsed value is returned. */
  schema: TSchema;
};

/** The answer's JSON body, or undefined when it has none (or none that parses). */
const readJson = (response: Response): Promise<unknown> => response.json().catch(() => undefined);

/** A refusal of the API as the error to show: the server's `{ error }` message and its `code`. */
function refusal(response: Response, payload: unknown, fallbackError: string): AppRequestError {
  const parsed = ZErrorResponseSchema.safeParse(payload);
  return toRequestError(
    { status: response.status, error: parsed.data?.error, code: parsed.data?.code },
    fallbackError,
  );
}

/**
 * Sends a request to the portal API on the same origin (session cookie included) and returns its answer
 * unread, whatever its status. A network failure throws an AppRequestError saying the portal could not be
 * reached; a request its caller cancelled (`signal`) throws its abort. The functions below read the answer;
 * this one is for the call whose failures the spec words itself (the embed URL: 'Backend error {status}:
 * {body}').
 */
export async function apiFetch(
  path: string,
  { method = "GET", body, headers = {}, signal, cache }: Omit<TSendOptions, "fallbackError">,
): Promise<Response> {
  const raw = body instanceof Blob;
  try {
    return await fetch(path, {
      method,
      credentials: "same-origin",
      headers: {
        Accept: "application/json",
        ...(body === undefined || raw ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
      signal,
      ...(cache ? { cache } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw toRequestError({}, PORTAL_UNREACHABLE);
  }
}

/**
 * Calls the portal API and validates the answer; returns it with the answer's headers (a list's total, the
 * audit log's neighbouring pages). Failures throw an AppRequestError with the server's `{ error }` message
 * and `code` when there are some.
 */
export async function apiRequestWithHeaders<TSchema extends core.$ZodType>(
  path: string,
  { schema, ...options }: TApiRequest<TSchema>,
): Promise<{ data: core.output<TSchema>; headers: Headers }> {
  const response = await apiFetch(path, options);
  return {
    data: await readApiAnswer(response, { schema, fallbackError: options.fallbackError }),
    headers: response.headers,
  };
}

/**
 * Reads an answer of the portal API that was sent before this module could send it (the start of a workbook
 * view, which the page has the browser ask for itself: decision 024) exactly as `apiRequest` reads its own.
 */
export async function readApiAnswer<TSchema extends core.$ZodType>(
  response: Response,
  { schema, fallbackError }: Pick<TApiRequest<TSchema>, "schema" | "fallbackError">,
): Promise<core.output<TSchema>> {
  const payload = await readJson(response);
  if (!response.ok) throw refusal(response, payload, fallbackError);
  const parsed = safeParse(schema, payload);
  if (!parsed.success) throw toRequestError({}, fallbackError);
  return parsed.data;
}

/** Calls the portal API and validates the answer (see `apiRequestWithHeaders`); returns the parsed body. */
export async function apiRequest<TSchema extends core.$ZodType>(
  path: string,
  options: TApiRequest<TSchema>,
): Promise<core.output<TSchema>> {
  return (await apiRequestWithHeaders(path, options)).data;
}

/**
 * GET a file the API streams (the audit log's CSV): the answer, its body not read yet, so the caller can show
 * its progress. Failures throw like `apiRequest`'s.
 */
export async function apiDownload(
  path: string,
  {
    accept,
    fallbackError,
    signal,
  }: { accept: string; fallbackError: string; signal?: AbortSignal | undefined },
): Promise<Response & { body: NonNullable<Response["body"]> }> {
  const response = await apiFetch(path, { headers: { Accept: accept }, signal });
  if (!response.ok || !response.body) throw refusal(response, await readJson(response), fallbackError);
  return response as Response & { body: NonNullable<Response["body"]> };
}
