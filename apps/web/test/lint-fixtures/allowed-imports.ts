// Linted as a file of features/workbooks (apps/web/test/lint-rules.test.ts): its own feature (alias and
// relative), components/ and lib/ are all allowed.
import { buttonClasses } from "@/components/ui/button";
import { myWorkbooksQueryOptions } from "@/features/workbooks/api/get-my-workbooks";
import { getErrorMessage } from "@/lib/errors";

import { selectWorkbook } from "../../workbooks/utils/select-workbook";
import { useCurrentWorkbook } from "../utils/use-current-workbook";

export const allowed = [
  buttonClasses,
  myWorkbooksQueryOptions,
  getErrorMessage,
  selectWorkbook,
  useCurrentWorkbook,
];
