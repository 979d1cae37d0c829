/**
 * A stand-in for Sigma's cloud (REST API and secure-embed page), written only from Sigma's published
 * material, so the portal can be tried against a reading of Sigma that does not share its assumptions.
 *
 * Sources, by behaviour:
 * - REST shapes, parameters and required fields: Sigma's OpenAPI definition (the api-evangelist/
 *   sigma-computing mirror, openapi/*.yml at 22f1865): members, teams, auth, account-types,
 *   user-attributes, whoami, grants, files and workbooks files. Member = 13 required fields with
 *   optional isArchived ("deactivated in Sigma") and isInactive ("archived by SCIM"); v2 members/teams
 *   lists are a oneOf of a bare array and `{entries, nextPage}` (page form when `limit` is sent);
 *   team members are `{userId, isTeamAdmin, addedBy}`; "Inactive members cannot be added or removed
 *   from a team"; createGrant only escalates; deleteGrant answers the grant; deleteMember only
 *   deactivates; workbookId is the grant inodeId ("use the workbookId as the inodeId").
 * - Token: the auth definition (form body, basicAuth) and help.sigmacomputing.com/reference/token
 *   (Basic username/password; a newer version sends client_id/client_secret as form fields).
 * - Default account types View, Act, Analyze, Build, Admin: "Create and manage account types".
 * - Embed: "JSON web token claims reference", "Create a secure embed" (jti replay), "Embed URL
 *   parameters", "Common embed error codes and messages", "Manage access to a secure embed", "Create a
 *   team for embed users", "Migrate to JWT-signed secure embed URLs".
 *
 * Where the material is silent, the stand-in chooses (each is commented where it is made):
 * - HTTP statuses and ApiError `code` strings (the definition declares only `default: ApiError`):
 *   400 bad body or parameter, 401 no/invalid/expired token, 404 unknown id or path, 409 duplicate
 *   member email (case-insensitive, archived members included) or team name (case-insensitive).
 * - createMember without userKind makes an "internal" user ("guest" when only isGuest is true); without
 *   memberType it uses `invitationDefaultAccountType` (the "Invitation default" is not named).
 * - updateMember applies any field, including memberType/userKind of non-embed users (nothing says
 *   Sigma refuses); every PATCH is logged and such changes are reported in `violations`.
 * - Filters: member email exact and case-insensitive; team name exact and case-insensitive (or
 *   substring, option); user-attribute name a case-insensitive substring ("Search filter"); listGrants
 *   filters combine with AND, and userId matches direct member grants only.
 * - Always-paged lists default to `defaultPageSize` entries; `limit` outside 1..1000 is a 400; page
 *   tokens are opaque; optional total/hasMore and optional member flags are left out.
 * - Embed: HTTP status per outcome (200 open, 400 EINVAL, 403 EACCES/EPERM or a code-less permission
 *   message, 404 ENOENT); a jti is spent once its signature verifies; an archived user gets ENOENT
 *   (no reactivation); a new embed user without a teams claim, an unknown team (matched exactly) or an
 *   unknown account_type is EINVAL; unknown user attribute names are accepted and reported; claims
 *   left out keep their earlier values; the default account type for embed users ("the highest") is
 *   `embedDefaultAccountType`.
 */
import Fastify from "fastify";
import type { FastifyError, FastifyRequest } from "fastify";
import type { AddressInfo } from "node:net";
import { createTokenStore, registerAuth, requireBearer } from "./auth.ts";
import { registerContent, upsertGrant } from "./content.ts";
import type { OperationId, StandInContext, StandInSettings } from "./context.ts";
import { registerEmbed } from "./embed.ts";
import { codeFor, SigmaApiError } from "./http.ts";
import { insertMember, registerMembers, resolveAccountType } from "./members.ts";
import {
  emailKey,
  findMemberByEmail,
  findTeamByName,
  newUuid,
  teamsOfMember,
  workbookUrlName,
} from "./store.ts";
import type { Permission, StandInState, StoredGrant, StoredMember, StoredTeam } from "./store.ts";
import { insertTeam, registerTeams } from "./teams.ts";

export type { OperationId } from "./context.ts";
export type * from "./store.ts";

export interface SigmaStandInOptions extends Partial<Omit<StandInSettings, "orgSlug">> {
  orgSlug?: string;
  organizationId?: string;
  /** The Admin who owns the API credentials; present in the member list as Sigma's would be. */
  owner?: { email: string; firstName?: string; lastName?: string };
  workbooks?: Array<{ name: string; workbookUrlId: string; workbookId?: string; path?: string }>;
  /** Lowest first. Default: Sigma's View, Act, Analyze, Build, Admin (isCustom false). */
  accountTypes?: Array<{ accountTypeName: string; description?: string; isCustom?: boolean }>;
  userAttributes?: Array<{ name: string; description?: string }>;
  /** Clock for token expiry, JWT exp and timestamps. */
  now?: () => Date;
}

export interface Fault {
  status: number;
  /** How many calls in a row fail (default 1). */
  count?: number;
  /** Apply the operation, then answer the error (a response lost after Sigma acted). */
  afterEffect?: boolean;
  retryAfterSeconds?: number;
}

const DEFAULT_ACCOUNT_TYPES: NonNullable<SigmaStandInOptions["accountTypes"]> = [
  { accountTypeName: "View", description: "Enables all View permissions." },
  { accountTypeName: "Act", description: "Enables all View and Act permissions." },
  { accountTypeName: "Analyze", description: "Enables all View, Act, and Analyze permissions." },
  {
    accountTypeName: "Build",
    description: "Enables all View, Act, and Analyze permissions and a selection of Build permissions.",
  },
  { accountTypeName: "Admin", description: "Enables all permissions, including administrative permissions." },
];

export async function startSigmaStandIn(options: SigmaStandInOptions = {}) {
  const now = options.now ?? (() => new Date());
  const settings: StandInSettings = {
    orgSlug: options.orgSlug ?? "advisory-firm",
    clientId: options.clientId ?? "standin-api-client",
    clientSecret: options.clientSecret ?? "standin-api-secret",
    embedClientId: options.embedClientId ?? "standin-embed-client",
    embedSecret: options.embedSecret ?? "standin-embed-secret-0123456789abcdef",
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    acceptFormCredentials: options.acceptFormCredentials ?? true,
    memberFlags: options.memberFlags ?? "when-true",
    v2ListsAlwaysPaged: options.v2ListsAlwaysPaged ?? false,
    defaultPageSize: options.defaultPageSize ?? 50,
    teamNameMatch: options.teamNameMatch ?? "exact",
    invitationDefaultAccountType: options.invitationDefaultAccountType ?? "View",
    embedDefaultAccountType: options.embedDefaultAccountType ?? "Build",
    allowAutomaticEmbedUserCreation: options.allowAutomaticEmbedUserCreation ?? true,
    requireTeamsClaimForNewEmbedUsers: options.requireTeamsClaimForNewEmbedUsers ?? true,
    teamEditsRefuseArchived: options.teamEditsRefuseArchived ?? true,
  };
  const state: StandInState = {
    organizationId: options.organizationId ?? newUuid(),
    ownerId: "",
    members: new Map(),
    teams: new Map(),
    workbooks: new Map(),
    grants: new Map(),
    accountTypes: (options.accountTypes ?? DEFAULT_ACCOUNT_TYPES).map((a) => ({
      accountTypeId: newUuid(),
      accountTypeName: a.accountTypeName,
      description: a.description ?? "",
      isCustom: a.isCustom ?? false,
    })),
    userAttributes: new Map(),
    usedJtis: new Set(),
    invitations: [],
    patchLog: [],
    violations: [],
    embedLog: [],
    embedRejections: [],
    requestLog: [],
    tokenRequests: [],
  };

  const app = Fastify({ logger: false, genReqId: () => newUuid() });
  const tokens = createTokenStore();
  const faults = new Map<string, Array<Fault & { count: number }>>();
  const operations = new WeakMap<FastifyRequest, string>();
  let baseUrl = "";

  const takeFault = (operation: string) => {
    const queue = faults.get(operation);
    const fault = queue?.[0];
    if (!fault) return undefined;
    fault.count -= 1;
    if (fault.count <= 0) queue.shift();
    return fault;
  };
  const faultError = (fault: Fault) =>
    new SigmaApiError(
      fault.status,
      `Injected failure (${fault.status})`,
      codeFor(fault.status),
      fault.retryAfterSeconds === undefined ? {} : { "retry-after": String(fault.retryAfterSeconds) },
    );

  const ctx: StandInContext = {
    state,
    settings,
    now,
    nowIso: () => now().toISOString(),
    baseUrl: () => baseUrl,
    route(method, url, operation, handler) {
      app.route({
        method,
        url,
        handler: async (req, reply) => {
          operations.set(req, operation);
          if (operation !== "postToken") requireBearer(ctx, tokens, req);
          const fault = takeFault(operation);
          if (fault && !fault.afterEffect) throw faultError(fault);
          const body = await handler(req);
          if (fault) throw faultError(fault);
          return reply.code(200).send(body);
        },
      });
    },
  };

  // JSON bodies: an empty body is no body; malformed JSON is a 400 in the ApiError shape.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    if (body === "") return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new SigmaApiError(400, "Malformed JSON body"), undefined);
    }
  });
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.setErrorHandler((error: FastifyError | SigmaApiError, req, reply) => {
    const status = error instanceof SigmaApiError ? error.status : (error.statusCode ?? 500);
    const code = error instanceof SigmaApiError ? error.code : codeFor(status);
    if (error instanceof SigmaApiError) reply.headers(error.headers);
    // A 400 is a request Sigma would refuse: the portal should never send one.
    if (status === 400) state.violations.push(`${req.method} ${req.url.split("?")[0]}: ${error.message}`);
    return reply.code(status).send({ message: error.message, code, requestId: req.id });
  });
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({
      message: `No route for ${req.method} ${req.url.split("?")[0]}`,
      code: "not_found",
      requestId: req.id,
    }),
  );
  app.addHook("onResponse", async (req, reply) => {
    state.requestLog.push({
      method: req.method,
      path: req.url.split("?")[0]!,
      operation: operations.get(req) ?? null,
      status: reply.statusCode,
    });
  });

  registerAuth(ctx, tokens);
  registerMembers(ctx);
  registerTeams(ctx);
  registerContent(ctx);
  registerEmbed(app, ctx, (req, operation) => operations.set(req, operation));

  // Seeds: the credentials' owner, workbooks (owned by the owner) and user attributes.
  const owner = insertMember(ctx, {
    email: options.owner?.email ?? "bi-admin@advisory-firm.example",
    firstName: options.owner?.firstName ?? "BI",
    lastName: options.owner?.lastName ?? "Administrator",
    memberType: "Admin",
    userKind: "internal",
  });
  state.ownerId = owner.memberId;
  owner.createdBy = owner.updatedBy = owner.memberId;
  const seededAt = now().toISOString();
  for (const w of options.workbooks ?? []) {
    const workbookId = w.workbookId ?? newUuid();
    state.workbooks.set(workbookId, {
      workbookId,
      workbookUrlId: w.workbookUrlId,
      name: w.name,
      path: w.path ?? "Client Portal",
      latestVersion: 1,
      ownerId: owner.memberId,
      createdBy: owner.memberId,
      updatedBy: owner.memberId,
      createdAt: seededAt,
      updatedAt: seededAt,
    });
  }
  for (const a of options.userAttributes ?? []) {
    const userAttributeId = newUuid();
    state.userAttributes.set(userAttributeId, {
      userAttributeId,
      name: a.name,
      description: a.description ?? null,
      createdBy: owner.memberId,
      updatedBy: owner.memberId,
      createdAt: seededAt,
      updatedAt: seededAt,
    });
  }

  await app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const copyMember = (m: StoredMember): StoredMember => structuredClone(m);
  /** The next `count` calls of an operation answer `status` (before or after taking effect). */
  const failNext = (operation: OperationId, fault: Fault): void => {
    const queue = faults.get(operation) ?? [];
    queue.push({ ...fault, count: fault.count ?? 1 });
    faults.set(operation, queue);
  };

  return {
    url: baseUrl,
    orgSlug: settings.orgSlug,
    organizationId: state.organizationId,
    credentials: { clientId: settings.clientId, clientSecret: settings.clientSecret },
    embedCredentials: { clientId: settings.embedClientId, secret: settings.embedSecret },
    /** The Admin member who owns the API credentials. */
    owner: copyMember(owner),
    state,
    settings,
    close: () => app.close(),

    /** Every access and refresh token issued so far stops working (the next call with one is a 401). */
    revokeTokens(): void {
      tokens.revokeAll();
    },
    /** New client credentials; the old ones are refused from now on (tokens already issued keep working). */
    rotateCredentials(next: { clientId?: string; clientSecret?: string } = {}) {
      settings.clientId = next.clientId ?? settings.clientId;
      settings.clientSecret = next.clientSecret ?? `rotated-${newUuid()}`;
      return { clientId: settings.clientId, clientSecret: settings.clientSecret };
    },
    failNext,
    /** The next create of that kind answers 409 without creating anything. */
    conflictOnNextCreate(operation: "createMember" | "createTeam" | "createGrant"): void {
      failNext(operation, { status: 409 });
    },

    /** All members, archived and inactive included (copies). */
    members: (): StoredMember[] => [...state.members.values()].map(copyMember),
    memberByEmail(email: string): StoredMember | undefined {
      const member = findMemberByEmail(state, email);
      return member && copyMember(member);
    },
    teams: () => [...state.teams.values()].map((t) => ({ ...t, members: new Map(t.members) })),
    teamByName(name: string): StoredTeam | undefined {
      const team = findTeamByName(state, name);
      return team && { ...team, members: new Map(team.members) };
    },
    /** The teams a member belongs to, with the member's admin flag in each. */
    teamsOf: (memberId: string) =>
      teamsOfMember(state, memberId).map((t) => ({
        teamId: t.teamId,
        name: t.name,
        isTeamAdmin: t.members.get(memberId)!.isTeamAdmin,
      })),
    grants: (): StoredGrant[] => [...state.grants.values()].map((g) => ({ ...g })),
    workbookByUrlId: (workbookUrlId: string) =>
      [...state.workbooks.values()].find((w) => w.workbookUrlId === workbookUrlId),
    /** The embed page path of a seeded workbook, `/{orgSlug}/workbook/{Name}-{workbookUrlId}`. */
    embedPath(workbookUrlId: string): string {
      const workbook = [...state.workbooks.values()].find((w) => w.workbookUrlId === workbookUrlId);
      if (!workbook) throw new Error(`No workbook ${workbookUrlId}`);
      return `/${settings.orgSlug}/workbook/${workbookUrlName(workbook.name)}-${workbookUrlId}`;
    },
    userAttributesOf: (memberId: string): Record<string, string> => ({
      ...state.members.get(memberId)?.userAttributes,
    }),
    patchLog: state.patchLog,
    violations: state.violations,
    embedLog: state.embedLog,
    embedRejections: state.embedRejections,
    requestLog: state.requestLog,
    tokenRequests: state.tokenRequests,
    invitations: state.invitations,

    /** Adds a member directly (as if made in Sigma's UI): no duplicate check, so a clash shows in `violations`. */
    addMember(input: {
      email: string;
      userKind?: "internal" | "guest" | "embed";
      memberType?: string;
      firstName?: string;
      lastName?: string;
      isArchived?: boolean;
      isInactive?: boolean;
    }): StoredMember {
      return copyMember(
        insertMember(ctx, {
          ...input,
          userKind: input.userKind ?? "internal",
          memberType: resolveAccountType(state, input.memberType ?? settings.invitationDefaultAccountType),
        }),
      );
    },
    /** Adds a team directly, with members given by memberId (returns the stored team). */
    addTeam(input: {
      name: string;
      description?: string;
      memberIds?: string[];
      adminIds?: string[];
    }): StoredTeam {
      const team = insertTeam(ctx, { name: input.name, description: input.description ?? null });
      for (const id of input.memberIds ?? [])
        team.members.set(id, { isTeamAdmin: false, addedBy: state.ownerId });
      for (const id of input.adminIds ?? [])
        team.members.set(id, { isTeamAdmin: true, addedBy: state.ownerId });
      return team;
    },
    /** Shares a seeded workbook directly (createGrant's rules: one grant per grantee, escalation only). */
    addGrant(input: {
      workbookUrlId: string;
      teamId?: string;
      memberId?: string;
      permission?: Permission;
    }): StoredGrant {
      const workbook = [...state.workbooks.values()].find((w) => w.workbookUrlId === input.workbookUrlId);
      if (!workbook) throw new Error(`No workbook ${input.workbookUrlId}`);
      const grantee =
        input.teamId !== undefined ? { teamId: input.teamId } : { memberId: input.memberId ?? "" };
      return {
        ...upsertGrant(ctx, {
          grantee,
          permission: input.permission ?? "view",
          inodeId: workbook.workbookId,
        }),
      };
    },
    /** Emails held by more than one member (should always be empty). */
    duplicateEmails: (): string[] => {
      const counts = new Map<string, number>();
      for (const m of state.members.values())
        counts.set(emailKey(m.email), (counts.get(emailKey(m.email)) ?? 0) + 1);
      return [...counts].filter(([, n]) => n > 1).map(([e]) => e);
    },
  };
}

export type SigmaStandIn = Awaited<ReturnType<typeof startSigmaStandIn>>;
