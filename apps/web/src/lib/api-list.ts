import { array } from "zod/mini";
import type { core } from "zod/mini";

import { DEFAULT_PAGE_SIZE } from "@portal/contracts";

import { apiRequestWithHeaders } from "./api-client";
import { listSearchParams, readTotal } from "./paging";
import type { TListPage, TListParams } from "./paging";

/**
 * GET one page of an admin list (`/api/admin/clients|employees|workbooks|sync`) through the API client. The
 * body is the spec's plain array; the total comes from the `X-Total-Count` header (DEVIATION D13). A path with
 * its own query (`/api/admin/sync?status=failed`) gets the paging appended to it.
 *
 * Apart from api-client.ts because the page size comes from the contracts' full-zod `fields.ts`, which the
 * sign-in page (it uses api-client.ts) must not load: it would add zod's full API to /login (decision 004).
 */
export async function apiListRequest<TItem extends core.$ZodType>(
  path: string,
  params: TListParams,
  { item, fallbackError, signal }: { item: TItem; fallbackError: string; signal?: AbortSignal | undefined },
): Promise<TListPage<core.output<TItem>>> {
  const query = listSearchParams(params);
  const { data: rows, headers } = await apiRequestWithHeaders(
    `${path}${path.includes("?") ? query.replace(/^\?/, "&") : query}`,
    { schema: array(item), fallbackError, signal },
  );
  const offset = params.offset ?? 0;
  return {
    rows,
    total: readTotal(headers.get("X-Total-Count"), offset, rows.length),
    limit: params.limit ?? DEFAULT_PAGE_SIZE,
    offset,
  };
}
