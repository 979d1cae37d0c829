import { config, safeParse } from "zod/mini";
import type { core } from "zod/mini";

import { ZErrorResponseSchema } from "@portal/contracts";

import { toRequestError } from "./errors";

// zod compiles its object parsers with `new Function` when the page allows it. The portal's CSP (script-src
// 'self') does not, so zod's probe for it only cost every page a refused eval and a CSP violation; jitless
// skips the probe (and the fast path the CSP rules out anyway). It holds for the full zod API too.
config({ jitless: true });

type TApiRequest<TSchema extends core.$ZodType> = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON; a file (`Blob`) is sent as it is, with the Content-Type given in `headers`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Validates the response body; the parsed value is returned. */
  schema: TSchema;
  /** Shown when the server gives no readable message. */
  fallbackError: string;
  signal?: AbortSignal;
};

/**
 * Calls the portal API on the same origin (session cookie included) and validates the answer.
 * Failures throw an AppRequestError with the server's `{ error }` message when there is one.
 */
export async function apiRequest<TSchema extends core.$ZodType>(
  path: string,
  { method = "GET", body, headers = {}, schema, fallbackError, signal }: TApiRequest<TSchema>,
): Promise<core.output<TSchema>> {
  const raw = body instanceof Blob;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: {
        Accept: "application/json",
        ...(body === undefined || raw ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
      signal,
    });
  } catch {
    throw toRequestError({}, "The portal could not be reached. Check your connection and try again.");
  }

  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ZErrorResponseSchema.safeParse(payload);
    throw toRequestError(
      { status: response.status, error: parsed.data?.error, code: parsed.data?.code },
      fallbackError,
    );
  }
  const parsed = safeParse(schema, payload);
  if (!parsed.success) throw toRequestError({}, fallbackError);
  return parsed.data;
}
