import { IMPORT_FIELD_LABELS, IMPORT_FIELDS, IMPORT_OPTIONAL_FIELDS } from "@portal/contracts";
import type { TImportField, TImportJob, TPersonKind, TImportMapping } from "@portal/contracts";

import { PEOPLE_SCREENS } from "@/lib/people-screens";

/** "client" → "clients", for headings and buttons. */
export const kindPlural = (kind: TPersonKind) => PEOPLE_SCREENS[kind].plural.toLowerCase();

export const listPathOf = (kind: TPersonKind) => PEOPLE_SCREENS[kind].routes.list;

/** The import's progress in whole percent (0 while nothing is done, 100 when every row is settled). */
export function progressPercent(job: Pick<TImportJob, "done" | "total">): number {
  if (job.total <= 0) return 100;
  return Math.min(100, Math.floor((job.done / job.total) * 100));
}

/**
 * The fields of a kind with their labels, and whether the file must have them. Password may be left out: a row
 * without one invites the person by email to choose their own (D55).
 */
export function importFields(kind: TPersonKind): { field: TImportField; label: string; required: boolean }[] {
  return IMPORT_FIELDS[kind].map((field) => ({
    field,
    label: IMPORT_FIELD_LABELS[field],
    required: !IMPORT_OPTIONAL_FIELDS.includes(field) && field !== "password",
  }));
}

/** Required fields no column is mapped to. */
export function unmappedRequired(kind: TPersonKind, mapping: TImportMapping): string[] {
  return importFields(kind)
    .filter((f) => f.required && mapping[f.field] === undefined)
    .map((f) => f.label);
}

/** The mapping with `field` set to column `index`, or removed (`null`); a column used elsewhere is freed. */
export function withColumn(
  mapping: TImportMapping,
  field: TImportField,
  index: number | null,
): TImportMapping {
  const next: TImportMapping = {};
  for (const [key, value] of Object.entries(mapping) as [TImportField, number][]) {
    if (key !== field && value !== index) next[key] = value;
  }
  if (index !== null) next[field] = index;
  return next;
}

/** The preview in one sentence: how many rows are ready, already there, and refused. */
export function previewSummary(job: Pick<TImportJob, "total" | "valid" | "invalid" | "skipped" | "kind">) {
  const rows = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "row" : "rows"}`;
  const parts = [`${rows(job.valid)} ready to import`];
  if (job.skipped > 0) parts.push(`${rows(job.skipped)} already in the portal (skipped)`);
  parts.push(`${rows(job.invalid)} with problems`);
  return `${rows(job.total)} in the file: ${parts.join(", ")}.`;
}
