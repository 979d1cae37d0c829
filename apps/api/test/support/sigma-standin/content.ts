import { z } from "zod";
import type { StandInContext } from "./context.ts";
import { badRequest, notFound, pageOf, parseBody, pathParam, queryString, tokenPageOf } from "./http.ts";
import { addViolation, grantJson, newUuid, userAttributeJson, workbookUrlName } from "./store.ts";
import type { Permission, StoredGrant, StoredWorkbook } from "./store.ts";

// Workbooks (workbooks definition §4.1–4.4), grants (grants definition §2), account types (§4.1),
// user attributes (§5.1, 5.13–5.16) and whoami (§6.1).

/** A workbook's permissions, lowest first ("Workbook Permission": view, explore, edit). */
const WORKBOOK_PERMISSIONS = ["view", "explore", "edit"] as const;
const ALL_PERMISSIONS = [
  "admin",
  "annotate",
  "update",
  "usage",
  "writeback",
  "create",
  "organize",
  "explore",
  "view",
  "edit",
  "apply",
] as const;

const Grantee = z.union([z.strictObject({ memberId: z.string() }), z.strictObject({ teamId: z.string() })]);

const CreateGrantBody = z.object({
  grantee: Grantee,
  permission: z.enum(ALL_PERMISSIONS),
  inodeId: z.string(),
  tagId: z.string().optional(),
});

const CreateWorkbookGrantBody = z.object({
  grants: z.array(
    z.object({ grantee: Grantee, permission: z.enum(WORKBOOK_PERMISSIONS), tagId: z.string().optional() }),
  ),
});

const SetUserAttributeForUsersBody = z.object({
  assignments: z.array(
    z.object({ userId: z.string(), value: z.object({ type: z.literal("string"), val: z.string() }) }),
  ),
});

export function workbookJson(ctx: StandInContext, w: StoredWorkbook): Record<string, unknown> {
  return {
    workbookId: w.workbookId,
    workbookUrlId: w.workbookUrlId,
    name: w.name,
    url: `${ctx.baseUrl()}/${ctx.settings.orgSlug}/workbook/${workbookUrlName(w.name)}-${w.workbookUrlId}`,
    path: w.path,
    latestVersion: w.latestVersion,
    ownerId: w.ownerId,
    createdBy: w.createdBy,
    updatedBy: w.updatedBy,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

type Grantee = { memberId: string } | { teamId: string };

/**
 * createGrant: "Create a grant or update an existing grant … can only be used to escalate the level of
 * access". The same grantee on the same inode keeps one grant; a lower permission leaves it unchanged
 * (whether Sigma refuses that or ignores it is not stated; it is reported as a violation).
 */
export function upsertGrant(
  ctx: StandInContext,
  input: { grantee: Grantee; permission: string; inodeId: string },
): StoredGrant {
  const { state } = ctx;
  const workbook = state.workbooks.get(input.inodeId);
  if (!workbook) throw badRequest(`Unknown inodeId: ${input.inodeId}`);
  if ("teamId" in input.grantee && !state.teams.has(input.grantee.teamId)) {
    addViolation(state, `grant to a team that does not exist: ${input.grantee.teamId}`);
    throw badRequest(`Unknown team: ${input.grantee.teamId}`);
  }
  if ("memberId" in input.grantee && !state.members.has(input.grantee.memberId)) {
    addViolation(state, `grant to a member that does not exist: ${input.grantee.memberId}`);
    throw badRequest(`Unknown member: ${input.grantee.memberId}`);
  }
  const rank = WORKBOOK_PERMISSIONS.indexOf(input.permission as Permission);
  if (rank < 0)
    throw badRequest(`Permission ${input.permission} is not valid for a workbook (view, explore, edit)`);
  const memberId = "memberId" in input.grantee ? input.grantee.memberId : null;
  const teamId = "teamId" in input.grantee ? input.grantee.teamId : null;
  const existing = [...state.grants.values()].find(
    (g) => g.inodeId === input.inodeId && g.memberId === memberId && g.teamId === teamId,
  );
  const at = ctx.nowIso();
  if (existing) {
    const current = WORKBOOK_PERMISSIONS.indexOf(existing.permission);
    if (rank < current) {
      addViolation(
        state,
        `createGrant tried to lower ${existing.permission} to ${input.permission} on ${workbook.name} (delete and re-grant instead)`,
      );
    } else if (rank > current) {
      existing.permission = WORKBOOK_PERMISSIONS[rank]!;
      existing.updatedAt = at;
      existing.updatedBy = state.ownerId;
    }
    return existing;
  }
  const grant: StoredGrant = {
    grantId: newUuid(),
    inodeId: input.inodeId,
    organizationId: state.organizationId,
    memberId,
    teamId,
    permission: WORKBOOK_PERMISSIONS[rank]!,
    createdBy: state.ownerId,
    updatedBy: state.ownerId,
    createdAt: at,
    updatedAt: at,
    inodeType: "workbook",
  };
  state.grants.set(grant.grantId, grant);
  return grant;
}

export function registerContent(ctx: StandInContext): void {
  const { state } = ctx;
  const getWorkbook = (workbookId: string) => {
    const workbook = state.workbooks.get(workbookId);
    if (!workbook) throw notFound("Workbook");
    return workbook;
  };
  const getGrant = (grantId: string) => {
    const grant = state.grants.get(grantId);
    if (!grant) throw notFound("Grant");
    return grant;
  };

  ctx.route("GET", "/v2/whoami", "whoAmI", () => ({
    userId: state.ownerId,
    organizationId: state.organizationId,
  }));

  ctx.route("GET", "/v2/workbooks", "listWorkbooks", (req) =>
    pageOf(
      req,
      [...state.workbooks.values()].map((w) => workbookJson(ctx, w)),
      ctx.settings.defaultPageSize,
    ),
  );

  ctx.route("GET", "/v2/workbooks/:workbookId", "getWorkbook", (req) =>
    workbookJson(ctx, getWorkbook(pathParam(req, "workbookId"))),
  );

  ctx.route("POST", "/v2/workbooks/:workbookId/grants", "createWorkbookGrant", (req) => {
    const workbook = getWorkbook(pathParam(req, "workbookId"));
    const body = parseBody(CreateWorkbookGrantBody, req.body);
    for (const g of body.grants) upsertGrant(ctx, { ...g, inodeId: workbook.workbookId });
    return {};
  });

  ctx.route("DELETE", "/v2/workbooks/:workbookId/grants/:grantId", "deleteWorkbookGrant", (req) => {
    const workbook = getWorkbook(pathParam(req, "workbookId"));
    const grant = getGrant(pathParam(req, "grantId"));
    if (grant.inodeId !== workbook.workbookId) throw notFound("Grant");
    state.grants.delete(grant.grantId);
    return {};
  });

  ctx.route("GET", "/v2/grants", "listGrants", (req) => {
    // Several filters together are combined with AND (the definition says to specify one, and no more).
    const inodeId = queryString(req, "inodeId");
    const teamId = queryString(req, "teamId");
    const userId = queryString(req, "userId");
    const grants = [...state.grants.values()].filter(
      (g) =>
        (inodeId === undefined || g.inodeId === inodeId) &&
        (teamId === undefined || g.teamId === teamId) &&
        // userId matches grants made to the member directly, not through a team.
        (userId === undefined || g.memberId === userId),
    );
    return pageOf(req, grants.map(grantJson), ctx.settings.defaultPageSize);
  });

  ctx.route("POST", "/v2/grants", "createGrant", (req) =>
    grantJson(upsertGrant(ctx, parseBody(CreateGrantBody, req.body))),
  );

  ctx.route("GET", "/v2/grants/:grantId", "getGrant", (req) =>
    grantJson(getGrant(pathParam(req, "grantId"))),
  );

  ctx.route("DELETE", "/v2/grants/:grantId", "deleteGrant", (req) => {
    const grant = getGrant(pathParam(req, "grantId"));
    state.grants.delete(grant.grantId);
    return grantJson(grant);
  });

  ctx.route("GET", "/v2/accountTypes", "listAccountTypes", (req) =>
    tokenPageOf(
      req,
      state.accountTypes.map((a) => ({ ...a })),
    ),
  );

  ctx.route("GET", "/v2/user-attributes", "listUserAttributes", (req) => {
    // name is "Search filter for the name of the user attribute": a case-insensitive substring match.
    const name = queryString(req, "name")?.toLowerCase();
    const attributes = [...state.userAttributes.values()].filter(
      (a) => name === undefined || a.name.toLowerCase().includes(name),
    );
    return pageOf(req, attributes.map(userAttributeJson), ctx.settings.defaultPageSize);
  });

  const getAttribute = (id: string) => {
    const attribute = state.userAttributes.get(id);
    if (!attribute) throw notFound("User attribute");
    return attribute;
  };

  ctx.route("GET", "/v2/user-attributes/:userAttributeId/users", "getUserAttributeUserAssignments", (req) => {
    const attribute = getAttribute(pathParam(req, "userAttributeId"));
    const entries = [...state.members.values()]
      .filter((m) => m.userAttributes[attribute.name] !== undefined)
      .map((m) => ({
        userId: m.memberId,
        value: { type: "string", val: m.userAttributes[attribute.name] },
        createdBy: state.ownerId,
        updatedBy: state.ownerId,
        createdAt: attribute.createdAt,
        updatedAt: attribute.updatedAt,
      }));
    return pageOf(req, entries, ctx.settings.defaultPageSize);
  });

  ctx.route("POST", "/v2/user-attributes/:userAttributeId/users", "setUserAttributeForUsers", (req) => {
    const attribute = getAttribute(pathParam(req, "userAttributeId"));
    const body = parseBody(SetUserAttributeForUsersBody, req.body);
    for (const a of body.assignments)
      if (!state.members.has(a.userId)) throw badRequest(`Unknown user: ${a.userId}`);
    for (const a of body.assignments)
      state.members.get(a.userId)!.userAttributes[attribute.name] = a.value.val;
    return {};
  });

  ctx.route(
    "DELETE",
    "/v2/user-attributes/:userAttributeId/users/:userId",
    "deleteUserAttributeForUser",
    (req) => {
      const attribute = getAttribute(pathParam(req, "userAttributeId"));
      const member = state.members.get(pathParam(req, "userId"));
      if (!member) throw notFound("User");
      delete member.userAttributes[attribute.name];
      return {};
    },
  );
}
