import type { FastifyInstance, FastifyRequest } from "fastify";
import { decodeProtectedHeader, errors, jwtVerify } from "jose";
import type { JWTPayload } from "jose";
import type { StandInContext } from "./context.ts";
import { insertMember } from "./members.ts";
import { addViolation, findAccountType, findMemberByEmail, teamsOfMember } from "./store.ts";
import type { StoredMember, StoredTeam, StoredWorkbook } from "./store.ts";

// The secure-embed page `GET /{orgSlug}/workbook/{Name}-{workbookUrlId}?:jwt=…&:embed=true`, from
// Sigma's "JSON web token claims reference", "Create a secure embed" (jti replay), "Embed URL
// parameters", "Common embed error codes and messages", "Manage access to a secure embed" and
// "Migrate to JWT-signed secure embed URLs" (see index.ts). Sigma answers with an app that shows a
// message and emits `workbook:error`; the stand-in answers a small HTML page whose status and
// `data-code` carry the outcome. The HTTP statuses are the stand-in's choice: none is documented.

const PERMISSION_DENIED = "You don't have permission to access this page.";
const MAX_SESSION_SECONDS = 2_592_000;

/** The documented interface parameters for JWT embeds, plus :jwt and :embed; any other ":" parameter is EINVAL. */
const URL_PARAMETERS = new Set([
  ":jwt",
  ":embed",
  ":hide_bookmarks",
  ":hide_explore_toggle",
  ":hide_folder_navigation",
  ":hide_menu",
  ":hide_tooltip",
  ":lng",
  ":lng_variant",
  ":menu_position",
  ":responsive_height",
  ":theme",
]);

/** Claims marked "Optional, affects embed users only", which internal users must not send. */
const USER_CLAIMS = ["first_name", "last_name", "user_attributes", "account_type", "teams"] as const;

class EmbedRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

const invalid = (reason: string) => new EmbedRefusal(400, "EINVAL", "Invalid argument.", reason);
const denied = (reason: string, message = PERMISSION_DENIED) => new EmbedRefusal(403, null, message, reason);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, attributes: Record<string, string>, text: string): string {
  const attrs = Object.entries(attributes)
    .map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main${attrs}><p>${escapeHtml(text)}</p></main></body></html>`;
}

function parseWorkbookPath(rest: string): string {
  const [nameAndId, ...tail] = rest.split("/").filter((s) => s !== "");
  if (!nameAndId) throw invalid("no workbook in the URL");
  // After the workbook: /page/{id}, /element/{id} and /tag/{name}, in pairs.
  for (let i = 0; i < tail.length; i += 2) {
    if (!["page", "element", "tag"].includes(tail[i]!) || tail[i + 1] === undefined) {
      throw invalid(`the URL format is incorrect: /${rest}`);
    }
  }
  const dash = nameAndId.lastIndexOf("-");
  return dash < 0 ? nameAndId : nameAndId.slice(dash + 1);
}

async function verifyToken(ctx: StandInContext, token: string): Promise<JWTPayload> {
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw denied("the :jwt value is not a JWT");
  }
  if (kid !== ctx.settings.embedClientId) throw denied("kid is not the embed client ID");
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(ctx.settings.embedSecret), {
      algorithms: ["HS256"],
      currentDate: ctx.now(),
      requiredClaims: ["sub", "jti", "iat", "exp"],
    });
    return payload;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw invalid("the JWT is expired");
    if (error instanceof errors.JWTClaimValidationFailed)
      throw invalid(`claim ${error.claim}: ${error.reason}`);
    throw denied("the signature does not verify with the embed secret");
  }
}

/** Claim rules of the claims reference: session length, ver, aud, 1.1-only claims, sub. */
function checkClaims(payload: JWTPayload): void {
  if (typeof payload.sub !== "string" || typeof payload.jti !== "string")
    throw invalid("sub and jti must be strings");
  if (payload.exp! - payload.iat! > MAX_SESSION_SECONDS) throw invalid("exp - iat exceeds 30 days");
  const ver = payload.ver ?? "1.0";
  if (ver !== "1.0" && ver !== "1.1") throw invalid(`ver ${String(ver)} is not "1.0" or "1.1"`);
  if (ver === "1.1") {
    const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!aud.includes("sigmacomputing")) throw invalid('ver "1.1" needs aud "sigmacomputing"');
  } else if (payload.oauth_token !== undefined || payload.connection_oauth_tokens !== undefined) {
    throw invalid('oauth_token and connection_oauth_tokens need ver "1.1"');
  }
  // "RFC-1035 compliant, and not include white space or unsupported characters, such as underscores."
  if (!/^[^\s_@]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(payload.sub)) {
    throw denied("sub is not a valid email", `${PERMISSION_DENIED} Invalid sub field in payload.`);
  }
  const strings = (v: unknown) => typeof v === "string";
  if (payload.teams !== undefined && !(Array.isArray(payload.teams) && payload.teams.every(strings))) {
    throw invalid("teams must be an array of strings");
  }
  const attributes = payload.user_attributes;
  if (
    attributes !== undefined &&
    (typeof attributes !== "object" || attributes === null || !Object.values(attributes).every(strings))
  ) {
    throw invalid("user_attributes must be an object of strings");
  }
  for (const claim of ["account_type", "first_name", "last_name"]) {
    if (payload[claim] !== undefined && typeof payload[claim] !== "string")
      throw invalid(`${claim} must be a string`);
  }
}

/** Finds or creates the member and applies the claims: returns the member and whether it was created. */
function resolveMember(ctx: StandInContext, payload: JWTPayload): { member: StoredMember; created: boolean } {
  const { state, settings } = ctx;
  const email = payload.sub!;
  const existing = findMemberByEmail(state, email);
  const sent = USER_CLAIMS.filter((c) => payload[c] !== undefined);

  if (existing && existing.userKind !== "embed") {
    if (sent.length > 0) {
      addViolation(state, `internal user received user claims: ${existing.email} (${sent.join(", ")})`);
      // Documented refusal: "Internal users can't update optional claims in the JWT URL."
      throw denied(
        "optional user claims for an internal user",
        `${PERMISSION_DENIED} Cannot update account type for internal users.`,
      );
    }
  }
  if (existing && (existing.isArchived || existing.isInactive)) {
    throw new EmbedRefusal(404, "ENOENT", "Object does not exist.", "the user is deactivated");
  }
  if (existing && existing.userKind !== "embed") return { member: existing, created: false };

  if (!existing && !settings.allowAutomaticEmbedUserCreation) {
    throw new EmbedRefusal(
      403,
      "EPERM",
      "The requested operation is not permitted.",
      "automatic user creation is off",
    );
  }
  const teamNames = payload.teams as string[] | undefined;
  if (!existing && settings.requireTeamsClaimForNewEmbedUsers && (teamNames ?? []).length === 0) {
    // "You must create a team and include a `teams` claim so that users can be created."
    addViolation(state, `embed for new user ${email} without a teams claim`);
    throw invalid("a new embed user needs a teams claim");
  }
  // Teams must exist already; names are matched exactly ("check spelling or create new teams").
  const teams: StoredTeam[] = [];
  for (const name of teamNames ?? []) {
    const team = [...state.teams.values()].find((t) => t.name === name);
    if (!team) {
      addViolation(state, `embed named a team that does not exist: ${name}`);
      throw invalid(`team ${name} does not exist`);
    }
    teams.push(team);
  }
  const accountTypeClaim = payload.account_type as string | undefined;
  const accountType = accountTypeClaim === undefined ? undefined : findAccountType(state, accountTypeClaim);
  if (accountTypeClaim !== undefined && !accountType) {
    addViolation(state, `embed named an account type that does not exist: ${accountTypeClaim}`);
    throw invalid(`account type ${accountTypeClaim} does not exist`);
  }
  const attributes = (payload.user_attributes ?? {}) as Record<string, string>;
  for (const name of Object.keys(attributes)) {
    // Unknown names: Sigma's behaviour is not stated ("The names must exactly match the user attributes created in Sigma").
    if (![...state.userAttributes.values()].some((a) => a.name === name)) {
      addViolation(state, `embed sent a user attribute that does not exist: ${name}`);
    }
  }

  const member =
    existing ??
    insertMember(ctx, {
      email,
      firstName: (payload.first_name as string | undefined) ?? "",
      lastName: (payload.last_name as string | undefined) ?? "",
      // "When you don't specify an account type, Sigma defaults to the highest account type."
      memberType: settings.embedDefaultAccountType,
      userKind: "embed",
    });
  if (existing) {
    if (payload.first_name !== undefined) member.firstName = payload.first_name as string;
    if (payload.last_name !== undefined) member.lastName = payload.last_name as string;
  }
  if (accountType) member.memberType = accountType.accountTypeName;
  if (teamNames !== undefined) {
    // "Sigma automatically overwrites the team assignments for users to the new team assignments."
    for (const team of teamsOfMember(state, member.memberId)) {
      if (!teams.includes(team)) team.members.delete(member.memberId);
    }
    for (const team of teams) {
      if (!team.members.has(member.memberId)) {
        team.members.set(member.memberId, { isTeamAdmin: false, addedBy: state.ownerId });
      }
    }
  }
  // Attributes in the claim are set; attributes the claim leaves out are kept (not stated either way).
  Object.assign(member.userAttributes, attributes);
  member.updatedAt = ctx.nowIso();
  return { member, created: !existing };
}

function isShared(ctx: StandInContext, workbook: StoredWorkbook, member: StoredMember): boolean {
  const teamIds = new Set(teamsOfMember(ctx.state, member.memberId).map((t) => t.teamId));
  return [...ctx.state.grants.values()].some(
    (g) =>
      g.inodeId === workbook.workbookId &&
      (g.memberId === member.memberId || (g.teamId !== null && teamIds.has(g.teamId))),
  );
}

async function openEmbed(ctx: StandInContext, req: FastifyRequest) {
  const params = req.params as Record<string, string>;
  if (params.orgSlug !== ctx.settings.orgSlug) {
    throw new EmbedRefusal(404, "ENOENT", "Object does not exist.", `unknown organization ${params.orgSlug}`);
  }
  const workbookUrlId = parseWorkbookPath(params["*"] ?? "");
  const query = req.query as Record<string, string | string[] | undefined>;
  for (const key of Object.keys(query)) {
    if (key.startsWith(":") && !URL_PARAMETERS.has(key)) throw invalid(`unknown URL parameter ${key}`);
  }
  const token = Array.isArray(query[":jwt"]) ? query[":jwt"][0] : query[":jwt"];
  if (!token) throw denied("no :jwt parameter");

  const payload = await verifyToken(ctx, token);
  checkClaims(payload);
  // "the server checks whether the value passed for the jti has already been seen. If it has, the
  // token is rejected as a replay attempt". A jti counts as seen once its signature verified.
  if (ctx.state.usedJtis.has(payload.jti!)) throw denied("jti was already used");
  ctx.state.usedJtis.add(payload.jti!);

  const { member, created } = resolveMember(ctx, payload);
  const workbook = [...ctx.state.workbooks.values()].find((w) => w.workbookUrlId === workbookUrlId);
  if (!workbook) throw new EmbedRefusal(404, "ENOENT", "Object does not exist.", "the workbook is not found");
  if (!isShared(ctx, workbook, member)) {
    throw new EmbedRefusal(
      403,
      "EACCES",
      "Permission denied.",
      "the workbook is not shared with the user or their teams",
    );
  }
  ctx.state.embedLog.push({
    memberId: member.memberId,
    email: member.email,
    userKind: member.userKind,
    created,
    workbookId: workbook.workbookId,
    claims: { ...payload },
    at: ctx.nowIso(),
  });
  return { member, workbook };
}

export function registerEmbed(
  app: FastifyInstance,
  ctx: StandInContext,
  mark: (req: FastifyRequest, operation: string) => void,
): void {
  app.get("/:orgSlug/workbook/*", async (req, reply) => {
    mark(req, "embed");
    try {
      const { member, workbook } = await openEmbed(ctx, req);
      return reply
        .code(200)
        .type("text/html; charset=utf-8")
        .send(
          page(
            workbook.name,
            { status: "open", "workbook-id": workbook.workbookId, "member-id": member.memberId },
            workbook.name,
          ),
        );
    } catch (error) {
      if (!(error instanceof EmbedRefusal)) throw error;
      const query = req.query as Record<string, unknown>;
      let email: string | null = null;
      try {
        const token = String(query[":jwt"] ?? "");
        email =
          (JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as JWTPayload).sub ??
          null;
      } catch {
        email = null;
      }
      ctx.state.embedRejections.push({
        status: error.status,
        code: error.code,
        message: error.message,
        reason: error.reason,
        email,
        at: ctx.nowIso(),
      });
      return reply
        .code(error.status)
        .type("text/html; charset=utf-8")
        .send(page("Sigma", { status: "error", code: error.code ?? "" }, error.message));
    }
  });
}
