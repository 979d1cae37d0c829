// Linted as a file of features/people (apps/web/test/lint-rules.test.ts): both imports reach into another
// feature, one through the `@/` alias and one through a relative path.
import { myWorkbooksQueryOptions } from "@/features/workbooks/api/get-my-workbooks";

import { selectWorkbook } from "../../workbooks/utils/select-workbook";

export const reachesIntoWorkbooks = [myWorkbooksQueryOptions, selectWorkbook];
