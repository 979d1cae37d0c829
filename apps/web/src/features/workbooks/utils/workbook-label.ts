/**
 * Sidebar label of a workbook: its Sigma name up to the last hyphen (the part after it is the workbook's
 * URL id), with the remaining hyphens read as spaces. "Tax-Center-hPiZ…" → "Tax Center".
 */
export function workbookLabel(workbookName: string): string {
  const cut = workbookName.lastIndexOf("-");
  const base = cut > 0 ? workbookName.slice(0, cut) : workbookName;
  return base.replaceAll("-", " ");
}
