// The start of a workbook view in one answer (decision 024, DEVIATIONS D61): whose workbooks, their list, the
// workbook shown first and its one-time embed URL.
import { z } from "zod";

import { ZWorkbookSchema } from "./admin.ts";
import { ZViewClientQuerySchema } from "./circle.ts";
import { storableText } from "./fields.ts";

/** `?workbook=` (the name in `/workbooks/{name}`, absent on `/`) and `?client=` (the client viewed). */
export const ZWorkbookStartQuerySchema = ZViewClientQuerySchema.extend({
  workbook: z.string().check(storableText("workbook")).trim().min(1).max(200).optional(),
});
export type TWorkbookStartQuery = z.infer<typeof ZWorkbookStartQuerySchema>;

/** GET /api/me/workbook-start. */
export const ZWorkbookStartResponseSchema = z.object({
  /** Whose workbooks: the client viewed (`c_id`), or null for the person's own. */
  clientId: z.number().int().nullable(),
  /** The same list as GET /api/me/workbooks for that client. */
  workbooks: z.array(ZWorkbookSchema),
  /** The workbook the page shows first: the one named when it is in the list, else the first; null: none. */
  workbook: z.string().nullable(),
  /** A one-time embed URL of `workbook`, minted and audited as provision-and-embed does; null: none. */
  embedUrl: z.string().nullable(),
});
export type TWorkbookStartResponse = z.infer<typeof ZWorkbookStartResponseSchema>;
