import { useMyWorkbooks } from "../api/get-my-workbooks";
import { selectWorkbook } from "./select-workbook";

/**
 * The workbook on screen for `/` (workbookId undefined) or `/workbooks/:workbookId`, with the list it came
 * from. The sidebar, the breadcrumb and the view all use this, so they always agree on the fallback.
 */
export function useCurrentWorkbook(workbookId: string | undefined) {
  const query = useMyWorkbooks();
  const workbook = query.data ? selectWorkbook(query.data, workbookId) : null;
  return { query, workbook };
}
