import { z } from "zod";

import { DEFAULT_PAGE_SIZE, ZErrorResponseSchema } from "@portal/contracts";

import { toRequestError } from "@/lib/errors";

import { listSearchParams, readTotal } from "../utils/paging";
import type { TListPage, TListParams } from "../utils/paging";

/**
 * GET one page of an admin list (`/api/admin/clients|employees|workbooks`). The body is the spec's plain
 * array; the total comes from the `X-Total-Count` header (DEVIATION D13), which `apiRequest` does not
 * expose, hence this small sibling of it with the same error handling.
 */
export async function listRequest<TItem extends z.ZodType>(
  path: string,
  params: TListParams,
  { item, fallbackError, signal }: { item: TItem; fallbackError: string; signal?: AbortSignal | undefined },
): Promise<TListPage<z.infer<TItem>>> {
  let response: Response;
  try {
    // A path with its own query (`/api/admin/sync?status=failed`) gets the paging appended to it.
    const query = listSearchParams(params);
    response = await fetch(`${path}${path.includes("?") ? query.replace(/^\?/, "&") : query}`, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      signal,
    });
  } catch {
    throw toRequestError({}, "The portal could not be reached. Check your connection and try again.");
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ZErrorResponseSchema.safeParse(payload);
    throw toRequestError({ status: response.status, error: parsed.data?.error }, fallbackError);
  }
  const parsed = z.array(item).safeParse(payload);
  if (!parsed.success) throw toRequestError({}, fallbackError);
  const offset = params.offset ?? 0;
  return {
    rows: parsed.data,
    total: readTotal(response.headers.get("X-Total-Count"), offset, parsed.data.length),
    limit: params.limit ?? DEFAULT_PAGE_SIZE,
    offset,
  };
}
