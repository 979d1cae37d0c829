import type { TWorkbook } from "@portal/contracts";

/**
 * The workbook a view shows (spec section 2): the one named `workbookId` when it is among the person's
 * workbooks, else the first of them (also for `/`, which has no id); null when they have none.
 */
export function selectWorkbook(
  workbooks: readonly TWorkbook[],
  workbookId: string | undefined,
): TWorkbook | null {
  return workbooks.find((workbook) => workbook.workbook_name === workbookId) ?? workbooks[0] ?? null;
}

/** Two letters for the collapsed sidebar: "Portfolio Overview" → "PO", "Income and Fees" → "IF", "Tax" → "TA". */
export function workbookInitials(label: string): string {
  const words = label.split(/[\s&]+/).filter((word) => word !== "" && !/^(and|of|the)$/i.test(word));
  const first = words[0] ?? label.trim();
  const letters = words.length > 1 ? `${first[0] ?? ""}${words.at(-1)?.[0] ?? ""}` : first.slice(0, 2);
  return letters.toUpperCase() || "?";
}
