import { randomBytes, randomUUID } from "node:crypto";

// What the stand-in remembers, and the JSON shapes it answers with. The shapes follow the required
// fields of Sigma's OpenAPI definition (see index.ts for the sources); optional fields are left out
// unless they carry information, so that a client which wrongly requires them fails here.

export type Permission = "view" | "explore" | "edit";

export interface StoredMember {
  memberId: string;
  organizationId: string;
  memberType: string;
  firstName: string;
  lastName: string;
  email: string;
  profileImgUrl: string | null;
  createdBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
  homeFolderId: string;
  userKind: string;
  /** "Whether a user is deactivated in Sigma." */
  isArchived: boolean;
  /** "Whether a user is archived by SCIM." */
  isInactive: boolean;
  /** User attribute values assigned to this user, by attribute name. */
  userAttributes: Record<string, string>;
}

export interface TeamMembership {
  isTeamAdmin: boolean;
  addedBy: string;
}

export interface StoredTeam {
  teamId: string;
  name: string;
  description: string | null;
  visibility: "public" | "private";
  createdBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
  workspaceId: string | null;
  members: Map<string, TeamMembership>;
}

export interface StoredWorkbook {
  workbookId: string;
  workbookUrlId: string;
  name: string;
  path: string;
  latestVersion: number;
  ownerId: string;
  createdBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface StoredGrant {
  grantId: string;
  inodeId: string;
  organizationId: string;
  memberId: string | null;
  teamId: string | null;
  permission: Permission;
  createdBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
  inodeType: "workbook";
}

export interface StoredAccountType {
  accountTypeId: string;
  accountTypeName: string;
  description: string;
  isCustom: boolean;
}

export interface StoredUserAttribute {
  userAttributeId: string;
  name: string;
  description: string | null;
  createdBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface PatchLogEntry {
  memberId: string;
  email: string;
  /** The member's userKind before the PATCH was applied. */
  userKindBefore: string;
  body: Record<string, unknown>;
  at: string;
}

export interface EmbedLogEntry {
  memberId: string;
  email: string;
  userKind: string;
  /** True when this embed created the member. */
  created: boolean;
  workbookId: string;
  claims: Record<string, unknown>;
  at: string;
}

export interface EmbedRejection {
  status: number;
  /** One of Sigma's embed error codes (EINVAL, EACCES, …), or null for the messages Sigma shows without one. */
  code: string | null;
  message: string;
  /** Why the stand-in refused, in its own words (for assertions). */
  reason: string;
  email: string | null;
  at: string;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  operation: string | null;
  status: number;
}

export interface TokenRequestEntry {
  grantType: string;
  /** How the client identified itself: HTTP Basic (the definition's security scheme) or form fields (the docs' curl example). */
  credentialsIn: "basic" | "form" | "bearer" | "none";
  status: number;
}

export interface StandInState {
  organizationId: string;
  /** The member who owns the API credentials (an Admin): createdBy/updatedBy of everything done through the API. */
  ownerId: string;
  members: Map<string, StoredMember>;
  teams: Map<string, StoredTeam>;
  workbooks: Map<string, StoredWorkbook>;
  grants: Map<string, StoredGrant>;
  /** Lowest first: the order in which a default for embed users ("the highest account type") is read. */
  accountTypes: StoredAccountType[];
  userAttributes: Map<string, StoredUserAttribute>;
  usedJtis: Set<string>;
  /** Emails Sigma would have sent an invitation to (createMember of a non-embed user without sendInvite=false). */
  invitations: string[];
  patchLog: PatchLogEntry[];
  violations: string[];
  embedLog: EmbedLogEntry[];
  embedRejections: EmbedRejection[];
  requestLog: RequestLogEntry[];
  tokenRequests: TokenRequestEntry[];
}

const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Member ids in the definition's examples are 29 letters and digits (`mTwJbaYKQbBexvF4ZWGeRxuAmbGKm`), not UUIDs. */
export function newMemberId(): string {
  return Array.from(randomBytes(29), (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join("");
}

export function newUuid(): string {
  return randomUUID();
}

export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

export function findMemberByEmail(state: StandInState, email: string): StoredMember | undefined {
  const key = emailKey(email);
  return [...state.members.values()].find((m) => emailKey(m.email) === key);
}

export function findTeamByName(state: StandInState, name: string): StoredTeam | undefined {
  const key = name.trim().toLowerCase();
  return [...state.teams.values()].find((t) => t.name.trim().toLowerCase() === key);
}

export function findAccountType(state: StandInState, name: string): StoredAccountType | undefined {
  // Case-insensitive: the material never says how memberType / account_type strings are compared.
  const key = name.trim().toLowerCase();
  return state.accountTypes.find((a) => a.accountTypeName.toLowerCase() === key);
}

export function teamsOfMember(state: StandInState, memberId: string): StoredTeam[] {
  return [...state.teams.values()].filter((t) => t.members.has(memberId));
}

export function addViolation(state: StandInState, text: string): void {
  state.violations.push(text);
}

/** Invariants Sigma keeps by itself; a break means something reached the stand-in that Sigma would refuse. */
export function checkInvariants(state: StandInState): void {
  const seen = new Map<string, number>();
  for (const m of state.members.values()) seen.set(emailKey(m.email), (seen.get(emailKey(m.email)) ?? 0) + 1);
  for (const [email, count] of seen) {
    const text = `two members with one email: ${email} (${count} members)`;
    if (count > 1 && !state.violations.includes(text)) addViolation(state, text);
  }
}

export interface MemberJsonOptions {
  /** "when-true": isArchived/isInactive appear only when true (the definition marks both optional). */
  memberFlags: "when-true" | "always";
}

/** The Member object: the definition's 13 required fields, then the two optional flags. */
export function memberJson(m: StoredMember, options: MemberJsonOptions): Record<string, unknown> {
  const json: Record<string, unknown> = {
    organizationId: m.organizationId,
    memberId: m.memberId,
    memberType: m.memberType,
    firstName: m.firstName,
    lastName: m.lastName,
    email: m.email,
    profileImgUrl: m.profileImgUrl,
    createdBy: m.createdBy,
    updatedBy: m.updatedBy,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    homeFolderId: m.homeFolderId,
    userKind: m.userKind,
  };
  if (options.memberFlags === "always" || m.isArchived) json.isArchived = m.isArchived;
  if (options.memberFlags === "always" || m.isInactive) json.isInactive = m.isInactive;
  return json;
}

/** The Team object: the 8 required fields (the optional isArchived is never set: teams are not archived here). */
export function teamJson(t: StoredTeam): Record<string, unknown> {
  return {
    teamId: t.teamId,
    createdBy: t.createdBy,
    updatedBy: t.updatedBy,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    name: t.name,
    description: t.description,
    visibility: t.visibility,
  };
}

export function grantJson(g: StoredGrant): Record<string, unknown> {
  return { ...g };
}

export function userAttributeJson(a: StoredUserAttribute): Record<string, unknown> {
  const json: Record<string, unknown> = {
    userAttributeId: a.userAttributeId,
    name: a.name,
    createdBy: a.createdBy,
    updatedBy: a.updatedBy,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
  if (a.description !== null) json.description = a.description;
  return json;
}

/** The part of a workbook URL before the id: Sigma's examples show the name with its spaces as hyphens. */
export function workbookUrlName(name: string): string {
  return name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "Workbook";
}
