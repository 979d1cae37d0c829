import { z } from "zod";
import { ZPersonKindSchema, type TPersonKind } from "./people.ts";

/**
 * CSV import of clients and employees (issue 14, decision 013, DEVIATIONS D52): upload a file, map its
 * columns, preview every row's problems, then import it as a durable job whose progress can be followed.
 */

/** Largest file and most rows one import takes. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;

/** The person's fields a column can be mapped to, in the order the forms show them. */
export const IMPORT_FIELDS = {
  client: ["clientId", "firstName", "lastName", "email", "password", "privilege", "workbooks"],
  employee: ["employeeId", "firstName", "lastName", "email", "password", "privilege", "clients"],
} as const satisfies Record<TPersonKind, readonly string[]>;
export type TImportField =
  (typeof IMPORT_FIELDS)["client"][number] | (typeof IMPORT_FIELDS)["employee"][number];

/** Fields a row may leave empty (the add forms' optional multi-selects). */
export const IMPORT_OPTIONAL_FIELDS: readonly TImportField[] = ["workbooks", "clients"];

export const IMPORT_FIELD_LABELS: Record<TImportField, string> = {
  clientId: "Client ID",
  employeeId: "Employee ID",
  firstName: "First Name",
  lastName: "Last Name",
  email: "Email",
  password: "Password",
  privilege: "Privilege",
  workbooks: "Workbooks",
  clients: "Assigned Clients",
};

/** Field → index of the file's column (0-based); a field left out is not in the file. */
export const ZImportMappingSchema = z.partialRecord(
  z.enum([...new Set([...IMPORT_FIELDS.client, ...IMPORT_FIELDS.employee])]),
  z.number().int().min(0).max(1000),
);
export type TImportMapping = z.infer<typeof ZImportMappingSchema>;

export const ZImportMappingRequestSchema = z.strictObject({ mapping: ZImportMappingSchema });
export type TImportMappingRequest = z.infer<typeof ZImportMappingRequestSchema>;

export const IMPORT_JOB_STATUSES = ["preview", "queued", "running", "done"] as const;
export type TImportJobStatus = (typeof IMPORT_JOB_STATUSES)[number];

/** One row's outcome: ok (to import), invalid (refused at preview), skipped (already in the portal), created, failed. */
export const IMPORT_ROW_STATUSES = ["ok", "invalid", "skipped", "pending", "created", "failed"] as const;

export const ZImportRowProblemSchema = z.object({
  /** The row's line number in the file (the header is line 1). */
  row: z.number().int(),
  status: z.enum(IMPORT_ROW_STATUSES),
  /** What is wrong, or why the row is skipped. */
  reason: z.string(),
  /** The row's identifying values, for the admin to find it. */
  businessId: z.string(),
  email: z.string(),
});
export type TImportRowProblem = z.infer<typeof ZImportRowProblemSchema>;

export const ZImportJobSchema = z.object({
  id: z.uuid(),
  kind: ZPersonKindSchema,
  fileName: z.string(),
  status: z.enum(IMPORT_JOB_STATUSES),
  /** The file's header cells, in order. */
  headers: z.array(z.string()),
  mapping: ZImportMappingSchema,
  /** Rows in the file (blank lines left out). */
  total: z.number().int(),
  /** At preview: rows ready to import, refused, and already in the portal. */
  valid: z.number().int(),
  invalid: z.number().int(),
  /** Rows the import has settled so far, and how: created, skipped (already there), failed. */
  done: z.number().int(),
  created: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
  startedAt: z.iso.datetime({ offset: true }).nullable(),
  finishedAt: z.iso.datetime({ offset: true }).nullable(),
  /** Problems and skips, in file order (at most 500; the failed-rows CSV has every failed row). */
  problems: z.array(ZImportRowProblemSchema),
  /** All problems and skips, when `problems` is cut short. */
  problemCount: z.number().int(),
});
export type TImportJob = z.infer<typeof ZImportJobSchema>;

export const ZImportJobIdParamsSchema = z.object({ jobId: z.uuid({ error: "jobId must be an import id." }) });
export const ZImportUploadParamsSchema = z.object({ kind: ZPersonKindSchema });
export const ZImportUploadQuerySchema = z.object({
  fileName: z
    .string()
    .max(255)
    .regex(/^[^\p{Cc}]*$/u, "fileName must be one line of text.")
    .optional(),
});
