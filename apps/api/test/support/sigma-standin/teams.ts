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
  queryString,
} from "./http.ts";
import { findTeamByName, newUuid, teamJson } from "./store.ts";
import type { StoredTeam } from "./store.ts";

// Teams (teams definition §2.1–2.8, 2.10).

const Visibility = z.enum(["public", "private"]);

const CreateTeamBody = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  members: z.array(z.string()).optional(),
  createTeamFolder: z.boolean().optional(),
  visibility: Visibility.optional(),
});

const UpdateTeamBody = z.object({
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  visibility: Visibility.optional(),
});

const UpdateTeamMembersBody = z.object({
  add: z.array(z.string()).optional(),
  remove: z.array(z.string()).optional(),
});

export interface NewTeam {
  name: string;
  description?: string | null;
  visibility?: "public" | "private";
  workspaceId?: string | null;
}

export function insertTeam(ctx: StandInContext, input: NewTeam): StoredTeam {
  const at = ctx.nowIso();
  const team: StoredTeam = {
    teamId: newUuid(),
    name: input.name,
    description: input.description ?? null,
    // "Whether to make a public or private team. Defaults to private."
    visibility: input.visibility ?? "private",
    createdBy: ctx.state.ownerId,
    updatedBy: ctx.state.ownerId,
    createdAt: at,
    updatedAt: at,
    workspaceId: input.workspaceId ?? null,
    members: new Map(),
  };
  ctx.state.teams.set(team.teamId, team);
  return team;
}

function getTeam(ctx: StandInContext, teamId: string): StoredTeam {
  const team = ctx.state.teams.get(teamId);
  if (!team) throw notFound("Team");
  return team;
}

export function registerTeams(ctx: StandInContext): void {
  const listed = (req: Parameters<typeof queryString>[0]) => {
    const name = queryString(req, "name")?.toLowerCase();
    const description = queryString(req, "description")?.toLowerCase();
    const visibility = queryString(req, "visibility");
    return [...ctx.state.teams.values()].filter((t) => {
      // The definition gives `name` no description: matched case-insensitively, whole name by default.
      if (name !== undefined) {
        const teamName = t.name.toLowerCase();
        if (ctx.settings.teamNameMatch === "exact" ? teamName !== name : !teamName.includes(name))
          return false;
      }
      if (description !== undefined && !(t.description ?? "").toLowerCase().includes(description))
        return false;
      if (visibility !== undefined && t.visibility !== visibility) return false;
      return true;
    });
  };

  ctx.route("GET", "/v2/teams", "listTeams", (req) =>
    arrayOrPage(req, listed(req).map(teamJson), {
      alwaysPaged: ctx.settings.v2ListsAlwaysPaged,
      defaultLimit: ctx.settings.defaultPageSize,
    }),
  );

  ctx.route("GET", "/v2.1/teams", "v2_1_listTeams", (req) =>
    pageOf(req, listed(req).map(teamJson), ctx.settings.defaultPageSize),
  );

  ctx.route("POST", "/v2/teams", "createTeam", (req) => {
    const body = parseBody(CreateTeamBody, req.body);
    // Not in the definition: team names are taken to be unique, compared case-insensitively.
    if (findTeamByName(ctx.state, body.name)) throw conflict(`A team named ${body.name} already exists`);
    const members = body.members ?? [];
    for (const memberId of members) {
      if (!ctx.state.members.has(memberId)) throw badRequest(`Unknown member: ${memberId}`);
    }
    const team = insertTeam(ctx, {
      name: body.name,
      description: body.description ?? null,
      visibility: body.visibility,
      // workspaceId has no description; it is taken to be the team folder asked for with createTeamFolder.
      workspaceId: body.createTeamFolder ? newUuid() : null,
    });
    for (const memberId of members)
      team.members.set(memberId, { isTeamAdmin: false, addedBy: ctx.state.ownerId });
    return { ...teamJson(team), members: [...team.members.keys()], workspaceId: team.workspaceId };
  });

  ctx.route("GET", "/v2/teams/:teamId", "getTeam", (req) => {
    const team = getTeam(ctx, pathParam(req, "teamId"));
    return { ...teamJson(team), members: [...team.members.keys()] };
  });

  ctx.route("PATCH", "/v2/teams/:teamId", "updateTeam", (req) => {
    const team = getTeam(ctx, pathParam(req, "teamId"));
    const body = parseBody(UpdateTeamBody, req.body);
    if (body.name !== undefined) {
      const other = findTeamByName(ctx.state, body.name);
      if (other && other.teamId !== team.teamId) throw conflict(`A team named ${body.name} already exists`);
      team.name = body.name;
    }
    if (body.description !== undefined) team.description = body.description;
    if (body.visibility !== undefined) team.visibility = body.visibility;
    team.updatedBy = ctx.state.ownerId;
    team.updatedAt = ctx.nowIso();
    return teamJson(team);
  });

  ctx.route("DELETE", "/v2/teams/:teamId", "deleteTeam", (req) => {
    const team = getTeam(ctx, pathParam(req, "teamId"));
    // Hard or soft delete is not stated; the team and the grants made to it go.
    ctx.state.teams.delete(team.teamId);
    for (const [grantId, grant] of ctx.state.grants)
      if (grant.teamId === team.teamId) ctx.state.grants.delete(grantId);
    return {};
  });

  ctx.route("GET", "/v2/teams/:teamId/members", "getTeamMembers", (req) => {
    const team = getTeam(ctx, pathParam(req, "teamId"));
    // Entries carry userId ("equivalent to Member ID"), isTeamAdmin and addedBy: no email, no memberId.
    const entries = [...team.members].map(([userId, m]) => ({
      userId,
      isTeamAdmin: m.isTeamAdmin,
      addedBy: m.addedBy,
    }));
    return pageOf(req, entries, ctx.settings.defaultPageSize);
  });

  ctx.route("PATCH", "/v2/teams/:teamId/members", "updateTeamMembers", (req) => {
    const team = getTeam(ctx, pathParam(req, "teamId"));
    const body = parseBody(UpdateTeamMembersBody, req.body);
    const add = body.add ?? [];
    const remove = body.remove ?? [];
    // All ids are checked before anything changes, so a refused request leaves the team as it was.
    for (const memberId of [...add, ...remove]) {
      const member = ctx.state.members.get(memberId);
      if (!member) throw badRequest(`Unknown member: ${memberId}`);
      // "Inactive members cannot be added or removed from a team."
      if (member.isInactive || (ctx.settings.teamEditsRefuseArchived && member.isArchived)) {
        throw badRequest(`Inactive members cannot be added or removed from a team: ${memberId}`);
      }
    }
    for (const memberId of add) {
      if (!team.members.has(memberId))
        team.members.set(memberId, { isTeamAdmin: false, addedBy: ctx.state.ownerId });
    }
    for (const memberId of remove) team.members.delete(memberId);
    return {};
  });
}
