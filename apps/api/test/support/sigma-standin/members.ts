import { z } from "zod";
import type { StandInContext } from "./context.ts";
import {
  arrayOrPage,
  badRequest,
  conflict,
  notFound,
  pageOf,
  parseBody,
  pathParam,
  queryBoolean,
  queryString,
} from "./http.ts";
import {
  addViolation,
  checkInvariants,
  emailKey,
  findAccountType,
  findMemberByEmail,
  memberJson,
  newMemberId,
  newUuid,
  teamJson,
  teamsOfMember,
} from "./store.ts";
import type { StandInState, StoredMember } from "./store.ts";

// Members (members definition §1.1–1.5, 1.11, 1.12).

const UserKind = z.enum(["internal", "guest", "embed"]);

const CreateMemberBody = z.object({
  email: z.email(),
  firstName: z.string(),
  lastName: z.string(),
  memberType: z.string().optional(),
  isGuest: z.boolean().optional(),
  userKind: UserKind.optional(),
  addToTeams: z.array(z.object({ teamId: z.string(), isTeamAdmin: z.boolean().optional() })).optional(),
});

const UpdateMemberBody = z.object({
  memberType: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  profileImgUrl: z.string().nullable().optional(),
  email: z.string().optional(),
  isArchived: z.boolean().optional(),
  isInactive: z.boolean().optional(),
  userKind: UserKind.optional(),
  newOwnerId: z.string().optional(),
  archiveDocuments: z.boolean().optional(),
  archiveScheduledExports: z.boolean().optional(),
});

/** Fields whose change on a non-embed (internal or guest) user the stand-in reports as a violation. */
const GUARDED_FIELDS = ["memberType", "userKind", "isArchived", "isInactive"] as const;

export function resolveAccountType(state: StandInState, name: string): string {
  const type = findAccountType(state, name);
  if (!type) throw badRequest(`Unknown account type: ${name}`);
  return type.accountTypeName;
}

export interface NewMember {
  email: string;
  firstName?: string;
  lastName?: string;
  memberType: string;
  userKind: string;
  isArchived?: boolean;
  isInactive?: boolean;
}

/** Stores a member as the API would (no checks: callers refuse duplicates where Sigma would). */
export function insertMember(ctx: StandInContext, input: NewMember): StoredMember {
  const at = ctx.nowIso();
  const member: StoredMember = {
    memberId: newMemberId(),
    organizationId: ctx.state.organizationId,
    memberType: input.memberType,
    firstName: input.firstName ?? "",
    lastName: input.lastName ?? "",
    email: input.email,
    profileImgUrl: null,
    createdBy: ctx.state.ownerId || "",
    updatedBy: ctx.state.ownerId || "",
    createdAt: at,
    updatedAt: at,
    homeFolderId: newUuid(),
    userKind: input.userKind,
    isArchived: input.isArchived ?? false,
    isInactive: input.isInactive ?? false,
    userAttributes: {},
  };
  ctx.state.members.set(member.memberId, member);
  checkInvariants(ctx.state);
  return member;
}

function getMember(ctx: StandInContext, memberId: string): StoredMember {
  const member = ctx.state.members.get(memberId);
  if (!member) throw notFound("Member");
  return member;
}

export function registerMembers(ctx: StandInContext): void {
  const json = (m: StoredMember) => memberJson(m, ctx.settings);

  const listed = (req: Parameters<typeof queryString>[0]) => {
    const email = queryString(req, "email");
    const search = queryString(req, "search");
    if (email !== undefined && search !== undefined)
      throw badRequest("Using email and search together is not supported");
    if (search !== undefined) addViolation(ctx.state, "listMembers used the deprecated search parameter");
    const includeArchived = queryBoolean(req, "includeArchived") ?? false;
    const includeInactive = queryBoolean(req, "includeInactive") ?? false;
    return [...ctx.state.members.values()].filter((m) => {
      if (m.isArchived && !includeArchived) return false;
      if (m.isInactive && !includeInactive) return false;
      // The email filter is an exact, case-insensitive match (the definition only says "Filter by email address").
      if (email !== undefined && emailKey(m.email) !== emailKey(email)) return false;
      if (search !== undefined) {
        const s = search.toLowerCase();
        const text = `${m.email} ${m.firstName} ${m.lastName}`.toLowerCase();
        if (!text.includes(s)) return false;
      }
      return true;
    });
  };

  ctx.route("GET", "/v2/members", "listMembers", (req) =>
    arrayOrPage(req, listed(req).map(json), {
      alwaysPaged: ctx.settings.v2ListsAlwaysPaged,
      defaultLimit: ctx.settings.defaultPageSize,
    }),
  );

  ctx.route("GET", "/v2.1/members", "v2_1_listMembers", (req) =>
    pageOf(req, listed(req).map(json), ctx.settings.defaultPageSize),
  );

  ctx.route("POST", "/v2/members", "createMember", (req) => {
    const body = parseBody(CreateMemberBody, req.body);
    // No conflict response is in the definition; Sigma keeps one member per email, and a deactivated
    // member still holds its email (deleteMember: "Users cannot be fully deleted, only deactivated").
    if (findMemberByEmail(ctx.state, body.email))
      throw conflict(`A member with email ${body.email} already exists`);
    const teams = (body.addToTeams ?? []).map((entry) => {
      const team = ctx.state.teams.get(entry.teamId);
      if (!team) throw badRequest(`Unknown team: ${entry.teamId}`);
      return { team, isTeamAdmin: entry.isTeamAdmin ?? false };
    });
    // userKind has no default in the definition; "internal" is assumed, and the older isGuest flag
    // means "guest" when no userKind is given (userKind wins when both are sent).
    const userKind = body.userKind ?? (body.isGuest ? "guest" : "internal");
    const memberType = resolveAccountType(
      ctx.state,
      body.memberType ?? ctx.settings.invitationDefaultAccountType,
    );
    const member = insertMember(ctx, {
      email: body.email,
      firstName: body.firstName,
      lastName: body.lastName,
      memberType,
      userKind,
    });
    for (const { team, isTeamAdmin } of teams) {
      team.members.set(member.memberId, { isTeamAdmin, addedBy: ctx.state.ownerId });
    }
    // "Creating a user with this endpoint sends an email invitation to the user. Embed users are not sent email invitations."
    if (userKind !== "embed" && queryBoolean(req, "sendInvite") !== false)
      ctx.state.invitations.push(member.email);
    return json(member);
  });

  ctx.route("GET", "/v2/members/:memberId", "getMember", (req) =>
    json(getMember(ctx, pathParam(req, "memberId"))),
  );

  ctx.route("PATCH", "/v2/members/:memberId", "updateMember", (req) => {
    const member = getMember(ctx, pathParam(req, "memberId"));
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const body = parseBody(UpdateMemberBody, raw);
    const deactivating = body.isArchived === true || body.isInactive === true;
    if (
      (body.archiveDocuments !== undefined || body.archiveScheduledExports !== undefined) &&
      !deactivating
    ) {
      throw badRequest(
        "archiveDocuments and archiveScheduledExports need isArchived or isInactive set to true",
      );
    }
    if (body.newOwnerId !== undefined && !ctx.state.members.has(body.newOwnerId)) {
      throw badRequest(`Unknown newOwnerId: ${body.newOwnerId}`);
    }
    if (body.email !== undefined) {
      const other = findMemberByEmail(ctx.state, body.email);
      if (other && other.memberId !== member.memberId)
        throw conflict(`A member with email ${body.email} already exists`);
    }
    const memberType =
      body.memberType === undefined ? undefined : resolveAccountType(ctx.state, body.memberType);

    ctx.state.patchLog.push({
      memberId: member.memberId,
      email: member.email,
      userKindBefore: member.userKind,
      body: structuredClone(raw),
      at: ctx.nowIso(),
    });
    // Sigma's material does not say it refuses these changes, so they are applied; they are reported
    // because the portal must never change an internal (or guest) user's type, kind or activation.
    if (member.userKind !== "embed") {
      const touched = GUARDED_FIELDS.filter((f) => body[f] !== undefined);
      if (touched.length > 0) {
        addViolation(ctx.state, `PATCH of ${member.userKind} user ${member.email}: ${touched.join(", ")}`);
      }
    }

    if (memberType !== undefined) member.memberType = memberType;
    if (body.firstName !== undefined) member.firstName = body.firstName;
    if (body.lastName !== undefined) member.lastName = body.lastName;
    if (body.profileImgUrl !== undefined) member.profileImgUrl = body.profileImgUrl;
    if (body.email !== undefined) member.email = body.email;
    if (body.userKind !== undefined) member.userKind = body.userKind;
    // isArchived:false reactivates (the definition does not describe reactivation; the flag is simply set).
    if (body.isArchived !== undefined) member.isArchived = body.isArchived;
    if (body.isInactive !== undefined) member.isInactive = body.isInactive;
    member.updatedBy = ctx.state.ownerId;
    member.updatedAt = ctx.nowIso();
    checkInvariants(ctx.state);
    return json(member);
  });

  ctx.route("DELETE", "/v2/members/:memberId", "deleteMember", (req) => {
    const member = getMember(ctx, pathParam(req, "memberId"));
    if (member.userKind !== "embed")
      addViolation(ctx.state, `deleteMember of ${member.userKind} user ${member.email}`);
    // "Users cannot be fully deleted, only deactivated … The user is directly marked archived by this API."
    member.isArchived = true;
    member.updatedBy = ctx.state.ownerId;
    member.updatedAt = ctx.nowIso();
    return {};
  });

  ctx.route("GET", "/v2/members/:memberId/teams", "listMemberTeams", (req) => {
    const member = getMember(ctx, pathParam(req, "memberId"));
    return pageOf(req, teamsOfMember(ctx.state, member.memberId).map(teamJson), ctx.settings.defaultPageSize);
  });
}
