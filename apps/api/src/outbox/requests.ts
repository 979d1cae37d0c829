import { SELF_SIGN_UP_ROLES, ZPrivilegeSchema } from "@portal/contracts";
import { parseWorkbookName } from "@portal/sigma";
import { and, eq, isNull, lte, or } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../db/client.ts";
import { provisioningRequests } from "../db/schema.ts";

/**
 * The kinds of work the portal sends the BI service, each with its payload. A row's payload is checked
 * against its kind when it is delivered: a payload that does not fit is the portal's own fault and fails
 * at once, with the reason, instead of being retried.
 */
const ZMemberState = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  privilege: ZPrivilegeSchema,
  /** When present, the complete list of teams the member must belong to. */
  teams: z.array(z.string()).optional(),
  /** The teams the portal owns: a membership in one of these that is not in `teams` is removed. */
  managedTeams: z.array(z.string()).optional(),
});
/** A self-registered editor or author (Create Account): a display name and a role. */
const ZSelfSignUpMember = z.object({
  email: z.string(),
  name: z.string(),
  role: z.enum(SELF_SIGN_UP_ROLES),
});

export const ZOutboxPayloads = {
  "member.upsert": z.union([ZMemberState, ZSelfSignUpMember]),
  "member.deactivate": z.object({ email: z.string() }),
  /** Only looks the email's member up and records it (an admin: never created or changed by the portal). */
  "member.link": z.object({ email: z.string() }),
  "team.upsert": z.object({
    name: z.string(),
    previousName: z.string().optional(),
    workbookId: z.number().optional(),
  }),
  /** The catalogue workbook (`<Name>-<workbookUrlId>`) shared with its team at `view`, the team made if missing. */
  "workbook.share": z.object({ workbookName: z.string(), teamName: z.string() }),
  /** The workbook no longer shared with this team (deleted from the catalogue, or given another team). */
  "workbook.unshare": z.object({ workbookName: z.string(), teamName: z.string() }),
} as const;

export type OutboxKind = keyof typeof ZOutboxPayloads;
export const OUTBOX_KINDS = Object.keys(ZOutboxPayloads) as OutboxKind[];
export type OutboxPayload<K extends OutboxKind> = z.infer<(typeof ZOutboxPayloads)[K]>;
export type MemberState = z.infer<typeof ZMemberState>;

/** One piece of work for the BI service; `userId` is the portal person it concerns, if any. */
export type OutboxRequest = {
  [K in OutboxKind]: { kind: K; payload: OutboxPayload<K>; userId?: string | null };
}[OutboxKind];

/**
 * What the row changes in the BI service: its member (by email), its team (by exact name, D31), or a
 * workbook's sharing (by the workbook's URL id, so a workbook's share and unshare go in order).
 */
export function subjectOf(request: OutboxRequest): string {
  switch (request.kind) {
    case "team.upsert":
      return `team:${request.payload.name}`;
    case "workbook.share":
    case "workbook.unshare":
      return `workbook:${urlIdOf(request.payload.workbookName)}`;
    default:
      return request.payload.email.toLowerCase();
  }
}

/** The `<workbookUrlId>` of `<Name>-<workbookUrlId>` (the whole name when it has no such suffix). */
export function urlIdOf(workbookName: string): string {
  return parseWorkbookName(workbookName)?.urlId ?? workbookName;
}

/**
 * Records work for the BI service in the caller's transaction; a worker on any instance delivers it.
 * `replacePending`: a row of the same person and kind that no worker has claimed yet is given the new
 * payload instead of a second row being queued (the newer state supersedes it). Answers the row's id.
 */
export async function enqueueOutbox(
  tx: Executor,
  request: OutboxRequest,
  options: { replacePending?: boolean } = {},
): Promise<string> {
  const payload = ZOutboxPayloads[request.kind].parse(request.payload) as Record<string, unknown>;
  const userId = request.userId ?? null;
  if (options.replacePending && userId) {
    const [replaced] = await tx
      .update(provisioningRequests)
      .set({ payload })
      .where(
        and(
          eq(provisioningRequests.userId, userId),
          eq(provisioningRequests.kind, request.kind),
          eq(provisioningRequests.status, "pending"),
          or(
            isNull(provisioningRequests.leaseExpiresAt),
            lte(provisioningRequests.leaseExpiresAt, new Date()),
          ),
        ),
      )
      .returning({ id: provisioningRequests.id });
    if (replaced) return replaced.id;
  }
  const [created] = await tx
    .insert(provisioningRequests)
    .values({ userId, kind: request.kind, subject: subjectOf(request), payload })
    .returning({ id: provisioningRequests.id });
  return created!.id;
}

/**
 * `enqueueOutbox` for many rows in one statement (a batch of the CSV import): each payload checked against
 * its kind and its subject derived the same way; the rows get their `seq` in the order given.
 */
export async function enqueueOutboxRows(tx: Executor, requests: OutboxRequest[]): Promise<void> {
  if (requests.length === 0) return;
  await tx.insert(provisioningRequests).values(
    requests.map((request) => ({
      userId: request.userId ?? null,
      kind: request.kind,
      subject: subjectOf(request),
      payload: ZOutboxPayloads[request.kind].parse(request.payload) as Record<string, unknown>,
    })),
  );
}
