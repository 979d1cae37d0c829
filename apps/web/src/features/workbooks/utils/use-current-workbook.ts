import type { TWorkbook } from "@portal/contracts";

import { useMyWorkbooks } from "../api/get-my-workbooks";
import { selectWorkbook } from "./select-workbook";
import { useViewedClient } from "./use-viewed-client";
import { isNotFound } from "./viewed-client";

/**
 * Where the list of workbooks is: `lost` when the URL names a client the person may not view (any more),
 * `pending` also while it is not known yet whose list to load.
 */
export type TWorkbooksState = "pending" | "lost" | "error" | "ready";

/**
 * The workbook on screen for `/` (workbookId undefined) or `/workbooks/:workbookId`, with the list it came
 * from and whose list it is (`?client=`; `clientId` null: the person's own). The sidebar, the breadcrumb and
 * the view all use this, so they always agree on the client and the fallback.
 */
export function useCurrentWorkbook(workbookId: string | undefined) {
  const viewed = useViewedClient();
  const clientId = viewed.status === "ready" ? viewed.clientId : null;
  const query = useMyWorkbooks(clientId, viewed.status === "ready");

  let state: TWorkbooksState;
  if (viewed.status === "invalid" || (clientId !== null && isNotFound(query.error))) state = "lost";
  else if (viewed.status === "pending" || query.isPending) state = "pending";
  else if (query.isError) state = "error";
  else state = "ready";

  const workbooks: readonly TWorkbook[] = state === "ready" ? (query.data ?? []) : [];
  const workbook = state === "ready" ? selectWorkbook(workbooks, workbookId) : null;
  return { query, state, workbooks, workbook, clientId };
}
