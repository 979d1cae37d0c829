import type { FastifyRequest } from "fastify";
import type { StandInState } from "./store.ts";

/** The operationIds of Sigma's definition that the stand-in answers (the names faults are addressed by). */
export type OperationId =
  | "postToken"
  | "whoAmI"
  | "listMembers"
  | "v2_1_listMembers"
  | "createMember"
  | "getMember"
  | "updateMember"
  | "deleteMember"
  | "listMemberTeams"
  | "listTeams"
  | "v2_1_listTeams"
  | "createTeam"
  | "getTeam"
  | "updateTeam"
  | "deleteTeam"
  | "getTeamMembers"
  | "updateTeamMembers"
  | "listWorkbooks"
  | "getWorkbook"
  | "createWorkbookGrant"
  | "deleteWorkbookGrant"
  | "listGrants"
  | "createGrant"
  | "getGrant"
  | "deleteGrant"
  | "listAccountTypes"
  | "listUserAttributes"
  | "getUserAttributeUserAssignments"
  | "setUserAttributeForUsers"
  | "deleteUserAttributeForUser";

export interface StandInSettings {
  orgSlug: string;
  clientId: string;
  clientSecret: string;
  embedClientId: string;
  embedSecret: string;
  tokenTtlSeconds: number;
  /** Accept client_id/client_secret as form fields too (Sigma's token page shows them; the definition has only Basic). */
  acceptFormCredentials: boolean;
  memberFlags: "when-true" | "always";
  /** Answer the page form on /v2/members and /v2/teams even without `limit` (Sigma: "starting June 2, 2026"). */
  v2ListsAlwaysPaged: boolean;
  /** Page size of the always-paged lists when no `limit` is sent (not stated; the workbooks example pages by 50). */
  defaultPageSize: number;
  teamNameMatch: "exact" | "contains";
  invitationDefaultAccountType: string;
  embedDefaultAccountType: string;
  allowAutomaticEmbedUserCreation: boolean;
  requireTeamsClaimForNewEmbedUsers: boolean;
  /** updateTeamMembers refuses deactivated (isArchived) members as well as SCIM-inactive ones. */
  teamEditsRefuseArchived: boolean;
}

export type RouteHandler = (req: FastifyRequest) => unknown;

export interface StandInContext {
  state: StandInState;
  settings: StandInSettings;
  now(): Date;
  nowIso(): string;
  /** The stand-in's own origin, known once it listens (workbook `url`s point at it). */
  baseUrl(): string;
  route(
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    operation: OperationId,
    handler: RouteHandler,
  ): void;
}
