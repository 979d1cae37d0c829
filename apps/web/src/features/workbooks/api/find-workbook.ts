import { queryOptions, useQuery } from "@tanstack/react-query";

import type { TWorkbook } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";
import { getWorkbooks, workbooksQueryKey } from "@/lib/get-workbooks";

export const WORKBOOK_NOT_FOUND = "This workbook no longer exists. It may have been deleted.";

/** The list's search accepts at most 100 characters; a longer name is narrowed by its start. */
const MAX_SEARCH_LENGTH = 100;

/**
 * One workbook by its (unique) Workbook Name, for Edit Workbook opened from the address bar, where no
 * workbook came along with the navigation. The list's search narrows the candidates; the exact name picks it.
 */
export async function findWorkbook(workbookName: string, signal?: AbortSignal): Promise<TWorkbook> {
  const page = await getWorkbooks({ q: workbookName.slice(0, MAX_SEARCH_LENGTH), limit: 50 }, signal);
  const workbook = page.rows.find((row) => row.workbook_name === workbookName);
  if (!workbook) throw new AppRequestError(WORKBOOK_NOT_FOUND, { status: 404 });
  return workbook;
}

export const findWorkbookQueryOptions = (workbookName: string) =>
  queryOptions({
    queryKey: [...workbooksQueryKey, "by-name", workbookName],
    queryFn: ({ signal }) => findWorkbook(workbookName, signal),
    retry: false,
  });

/** The workbook passed along by the list (`initial`), else looked up by name. */
export function useWorkbook(workbookName: string, initial: TWorkbook | undefined) {
  return useQuery({
    ...findWorkbookQueryOptions(workbookName),
    enabled: workbookName !== "" && initial === undefined,
  });
}
