// The workbook catalogue, workbook viewing and the BI sync page's API (spec §7). People (clients and
// employees) are in `people.ts`; the field rules all of them share in `fields.ts`.
import { z } from "zod";
import {
  MAX_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  ZEmbedDataSchema,
  listQuery,
  positiveId,
  queryNumber,
  requestBody,
  requiredText,
  storableText,
} from "./fields.ts";
import { PERSON_KINDS } from "./person-kinds.ts";

// ---- Workbooks ----

/** `<Name>-<workbookUrlId>`: the Sigma URL segment; the sidebar label is the part before the last hyphen. */
export const WORKBOOK_NAME_PATTERN = /^[^\s/?#%\\]+-[A-Za-z0-9]{22,24}$/;

export const ZWorkbookSchema = z.object({
  id: z.number().int(),
  workbook_name: z.string(),
  team_name: z.string(),
});
export type TWorkbook = z.infer<typeof ZWorkbookSchema>;

export const ZWorkbookInputSchema = requestBody({
  workbook_name: requiredText(200, "Workbook Name").regex(
    WORKBOOK_NAME_PATTERN,
    "Workbook Name must be the workbook's Sigma URL name: <Name>-<22 to 24 letter/digit id>, e.g. Portfolio-Overview-wBUBiChqcA6De2yMJGx4YJ.",
  ),
  team_name: requiredText(200, "Team Name"),
});
export type TWorkbookInput = z.infer<typeof ZWorkbookInputSchema>;

export const ZWorkbookMutationResponseSchema = z.object({ message: z.string(), data: ZWorkbookSchema });

export const WORKBOOK_SORTS = [
  "id",
  "-id",
  "workbook_name",
  "-workbook_name",
  "team_name",
  "-team_name",
] as const;
export const ZWorkbookListQuerySchema = listQuery(WORKBOOK_SORTS, "id");
export type TWorkbookListQuery = z.input<typeof ZWorkbookListQuerySchema>;

/** The label shown in the sidebar: the workbook name up to its last hyphen, hyphens read as spaces. */
export function workbookLabel(workbookName: string): string {
  const cut = workbookName.lastIndexOf("-");
  return (cut > 0 ? workbookName.slice(0, cut) : workbookName).replace(/-/g, " ");
}

// ---- Workbook viewing (signed-in clients and employees) ----

/** POST /api/sigma/provision-and-embed — `workbookId` is the workbook name segment `<Name>-<urlId>`. */
export const ZProvisionAndEmbedRequestSchema = z.strictObject(
  {
    workbookId: z
      .string({ error: "workbookId is required." })
      .check(storableText("workbookId"))
      .trim()
      .min(1, "workbookId is required.")
      .max(200),
    /** The client to view (`c_id`, issue 23): absent, the caller's own. */
    clientId: positiveId("clientId").optional(),
  },
  { error: (iss) => (iss.code === "invalid_type" ? "workbookId is required." : undefined) },
);
export type TProvisionAndEmbedRequest = z.infer<typeof ZProvisionAndEmbedRequestSchema>;
export const ZProvisionAndEmbedResponseSchema = ZEmbedDataSchema.extend({ embedUrl: z.string() });
export type TProvisionAndEmbedResponse = z.infer<typeof ZProvisionAndEmbedResponseSchema>;

/** GET /api/me/workbooks — the caller's workbooks, for the sidebar. */
export const ZMyWorkbooksResponseSchema = z.array(ZWorkbookSchema);

// ---- BI sync (/admin/sync): the changes on their way to the BI service ----

export const SYNC_KINDS = [
  "member.upsert",
  "member.deactivate",
  "member.link",
  "team.upsert",
  "workbook.share",
  "workbook.unshare",
] as const;

/** One change not yet delivered to the BI service, or refused by it (DEVIATIONS D44). */
export const ZSyncItemSchema = z.object({
  id: z.string(),
  kind: z.enum(SYNC_KINDS),
  /** The BI member's email, the team's name, or the workbook's catalogue name. */
  subject: z.string(),
  /** The team a workbook is shared with (`workbook.share`) or no longer shared with (`workbook.unshare`). */
  team_name: z.string().nullable(),
  /** The client or employee it concerns, while they exist. */
  person: z
    .object({
      type: z.enum(PERSON_KINDS),
      id: z.number().int(),
      business_id: z.string(),
      name: z.string(),
    })
    .nullable(),
  /** pending: on its way (maybe waiting for the BI service); failed: refused by the BI service. */
  status: z.enum(["pending", "failed"]),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string(),
  waiting_since: z.string().nullable(),
  /** A worker is delivering it right now. */
  in_flight: z.boolean(),
  created_at: z.string(),
});
export type TSyncItem = z.infer<typeof ZSyncItemSchema>;

export const SYNC_FILTERS = ["all", "failed", "waiting"] as const;
export const ZSyncListQuerySchema = z.object({
  limit: queryNumber("limit", 1, MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}.`).default(
    DEFAULT_PAGE_SIZE,
  ),
  offset: queryNumber("offset", 0, 10_000_000, "offset is too large.").default(0),
  status: z.enum(SYNC_FILTERS, { error: `status must be one of ${SYNC_FILTERS.join(", ")}.` }).default("all"),
});
export type TSyncListQuery = z.input<typeof ZSyncListQuerySchema>;

/** The queue at a glance, and whether the BI service answers right now. */
export const ZSyncOverviewSchema = z.object({
  reachable: z.boolean(),
  checked_at: z.string(),
  pending: z.number().int(),
  waiting: z.number().int(),
  failed: z.number().int(),
  waiting_since: z.string().nullable(),
  /**
   * Clients and employees whose Sigma member also signs in to Sigma directly: linked, never changed by the
   * portal (their account type, teams and attributes are managed in Sigma).
   */
  managed_in_sigma: z.array(
    z.object({ type: z.enum(PERSON_KINDS), business_id: z.string(), name: z.string(), email: z.string() }),
  ),
});
export type TSyncOverview = z.infer<typeof ZSyncOverviewSchema>;

export const ZSyncRetryResponseSchema = z.object({ message: z.string(), requeued: z.number().int() });
export type TSyncRetryResponse = z.infer<typeof ZSyncRetryResponseSchema>;
