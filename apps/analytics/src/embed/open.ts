import { parseWorkbookName, type TEmbedClaims } from "@portal/sigma";
import type { AnalyticsConfig } from "../config.ts";
import type { Database, Queryable } from "../db/database.ts";
import type { TWorkbook } from "../workbooks/schema.ts";
import {
  createEmbedSession,
  findMemberByEmail,
  findWorkbookByUrlId,
  hasUserClaims,
  memberCanOpen,
  teamsByName,
  upsertEmbedMember,
  type CatalogWorkbook,
  type Member,
} from "./members.ts";
import { EmbedError, EmbedNotice, consumeJti } from "./verify.ts";

/** Sigma's code-less refusal of user claims in an internal user's token. */
export const INTERNAL_USER_CLAIMS_MESSAGE =
  "You don't have permission to access this page. Cannot update account type for internal users.";

export interface OpenedEmbed {
  member: Member;
  catalogued: CatalogWorkbook;
  definition: TWorkbook;
  sessionToken: string;
}

export interface OpenRequest {
  claims: TEmbedClaims;
  kid: string;
  org: string;
  workbookName: string;
  pageId: string | undefined;
}

/**
 * The member a token opens the workbook as. An embed user is created or updated from the claims (the teams
 * named must exist); an internal user (a member whose `userKind` is not `embed`) brings their own teams and
 * attributes, and a token that carries user claims for them is refused.
 */
async function embedMember(tx: Queryable, claims: TEmbedClaims): Promise<Member | EmbedError | EmbedNotice> {
  const existing = await findMemberByEmail(tx, claims.sub);
  if (existing && (existing.is_archived || existing.is_inactive)) {
    return new EmbedError("ENOENT", "Your access to analytics has been deactivated.", "member deactivated");
  }
  if (existing && existing.user_kind !== "embed") {
    return hasUserClaims(claims)
      ? new EmbedNotice(INTERNAL_USER_CLAIMS_MESSAGE, "user claims for an internal user")
      : existing;
  }
  let teamIds: string[] | undefined;
  if (claims.teams) {
    const teams = await teamsByName(tx, claims.teams);
    if (teams.missing.length > 0) {
      return new EmbedError(
        "EINVAL",
        `The specified teams in "teams" do not exist: ${teams.missing.join(", ")}. ` +
          "Please check spelling or create new teams in the admin portal.",
        "unknown teams",
      );
    }
    teamIds = teams.teamIds;
  }
  return upsertEmbedMember(tx, claims, teamIds);
}

/**
 * Everything that decides whether an embed URL opens, in one transaction: the jti is consumed (and stays
 * consumed, and the user stays recorded, even when the workbook is then refused, as with Sigma), the member
 * resolved, the workbook and page found, access checked, and the page's session opened.
 */
export async function openEmbed(
  deps: { config: AnalyticsConfig; db: Database; workbooks: Map<string, TWorkbook> },
  request: OpenRequest,
): Promise<OpenedEmbed> {
  const { config, db, workbooks } = deps;
  const parsed = parseWorkbookName(request.workbookName);
  const definition = parsed ? workbooks.get(parsed.urlId) : undefined;
  const outcome = await db.transaction(async (tx): Promise<OpenedEmbed | EmbedError | EmbedNotice> => {
    if (!(await consumeJti(tx, request.kid, request.claims))) {
      return new EmbedError(
        "EINVAL",
        "This embed link has already been used. Please reload the page to get a new one.",
        "jti reused",
      );
    }
    const member = await embedMember(tx, request.claims);
    if (!("member_id" in member)) return member;
    const catalogued = parsed ? await findWorkbookByUrlId(tx, parsed.urlId) : undefined;
    if (request.org !== config.orgSlug || !catalogued || catalogued.is_archived || !definition) {
      return new EmbedError(
        "ENOENT",
        "This workbook does not exist or has been removed.",
        "unknown workbook",
      );
    }
    if (!(await memberCanOpen(tx, member.member_id, catalogued.workbook_id))) {
      return new EmbedError("EACCES", "This workbook has not been shared with you.", "not shared");
    }
    if (request.pageId && !definition.pages.some((p) => p.id === request.pageId)) {
      return new EmbedError("ENOENT", "This page of the workbook does not exist.", "unknown page");
    }
    const sessionToken = await createEmbedSession(
      tx,
      member.member_id,
      catalogued.workbook_id,
      request.claims.exp,
    );
    return { member, catalogued, definition, sessionToken };
  });
  if (outcome instanceof Error) throw outcome;
  return outcome;
}
