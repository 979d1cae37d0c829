import { SigmaApiError, type SigmaRestClient, type TSigmaMember } from "@portal/sigma";
import { and, eq, like } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { biMembers, workbooks } from "../db/schema.ts";
import type { OutboxRow } from "../outbox/queue.ts";
import {
  urlIdOf,
  ZOutboxPayloads,
  type MemberState,
  type OutboxKind,
  type OutboxPayload,
} from "../outbox/requests.ts";

export interface ProvisioningOptions {
  db: Database;
  client: SigmaRestClient;
  config: AppConfig;
  log?: FastifyBaseLogger;
  /** First retry delay; doubles per attempt up to `maxDelayMs` (default five minutes). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Who holds the claims (one name per worker); default a random one. */
  owner?: string;
  /** How long a claim lasts: a worker that dies leaves its rows to others after this. */
  leaseMs?: number;
}

/** A row whose payload does not fit its kind: the portal's own fault, never worth retrying. */
export class PayloadError extends Error {}

/**
 * Something only a person can fix: a workbook of the catalogue that is not in the BI service (fix the name,
 * or publish it), a member deactivated by the firm's identity provider.
 */
export class Refusal extends Error {}

/**
 * The live (not archived) team with exactly this name, if the BI service has one. `anyCase`: also one whose
 * name differs only in letter case, taken only after the service refused to create the team (409): then
 * it holds both spellings to be one name. Before that, a team of another spelling may be someone else's
 * (DEVIATIONS D31).
 */
async function findTeam(client: SigmaRestClient, name: string, anyCase = false) {
  const live = (await client.listTeams(name)).filter((t) => !t.isArchived);
  return (
    live.find((t) => t.name === name) ??
    (anyCase ? live.find((t) => t.name.toLowerCase() === name.toLowerCase()) : undefined)
  );
}

/** A 409 from a create: the thing exists already (an earlier attempt, another portal instance, the firm). */
const isConflict = (error: unknown) => error instanceof SigmaApiError && error.status === 409;

/** A create refused with 409 whose existing thing could not be found yet: tried again, never failed. */
class NotYetFound extends Error {}

/** The team's id, creating it when it does not exist; a 409 on create adopts the team that exists. */
async function ensureTeam(client: SigmaRestClient, name: string): Promise<string> {
  const existing = await findTeam(client, name);
  if (existing) return existing.teamId;
  try {
    return (await client.createTeam({ name })).teamId;
  } catch (error) {
    if (!isConflict(error)) throw error;
    const adopted = await findTeam(client, name, true);
    if (adopted) return adopted.teamId;
    throw new NotYetFound(`The BI service says a team named ${name} exists, but does not list it yet.`);
  }
}

function payloadOf<K extends OutboxKind>(row: OutboxRow, kind: K): OutboxPayload<K> {
  const parsed = ZOutboxPayloads[kind].safeParse(row.payload);
  if (!parsed.success)
    throw new PayloadError(`The queued ${kind} change is malformed: ${parsed.error.message}`);
  return parsed.data as OutboxPayload<K>;
}

/** The back office's member state, or a self-registered person's (a display name, privilege View). */
function memberState(payload: OutboxPayload<"member.upsert">): MemberState {
  if ("firstName" in payload) return payload;
  const [firstName = "", ...rest] = payload.name.split(" ");
  return { email: payload.email, firstName, lastName: rest.join(" "), privilege: "View" };
}

/** Someone who also signs in to Sigma directly: the portal links them and never changes them. */
export const isManagedInSigma = (member: Pick<TSigmaMember, "userKind">) => member.userKind !== "embed";

/** Remembers the BI member found or made for an email (its id and kind: embed, or managed in Sigma). */
async function linkMember(db: Database, member: TSigmaMember): Promise<void> {
  await db
    .insert(biMembers)
    .values({ email: member.email.toLowerCase(), memberId: member.memberId, userKind: member.userKind })
    .onConflictDoUpdate({
      target: biMembers.email,
      set: { memberId: member.memberId, userKind: member.userKind, updatedAt: new Date() },
    });
}

/**
 * The member with this email, created as an embed user when there is none. Deactivated members are found
 * too (`includeArchived`), so a person deleted and added again keeps their one member. A 409 on create
 * (made meanwhile by an earlier attempt whose answer was lost, another instance, or the firm) is looked up
 * and adopted.
 */
async function findOrCreateMember(client: SigmaRestClient, m: MemberState, memberType: string) {
  const found = await client.findMemberByEmail(m.email);
  if (found) return found;
  try {
    return await client.createMember({
      email: m.email,
      firstName: m.firstName,
      lastName: m.lastName,
      memberType,
      userKind: "embed",
    });
  } catch (error) {
    if (!isConflict(error)) throw error;
    const adopted = await client.findMemberByEmail(m.email);
    if (adopted) return adopted;
    throw new NotYetFound(`The BI service says ${m.email} exists, but does not list them yet.`);
  }
}

async function upsertMember({ client, config, db }: ProvisioningOptions, m: MemberState) {
  const memberType = config.sigma.memberTypes[m.privilege];
  let member = await findOrCreateMember(client, m, memberType);
  await linkMember(db, member);
  // Someone who signs in to Sigma directly keeps their account type, teams and state: Sigma's to manage.
  if (isManagedInSigma(member)) return;
  // Archived by the firm's identity provider (SCIM): theirs to bring back, not the portal's.
  if (member.isInactive) {
    throw new Refusal(
      `${m.email} was deactivated in Sigma by the firm's identity provider (SCIM): reactivate them there, then Retry.`,
    );
  }
  // A member the portal deactivated (a person deleted and added again) is brought back.
  const reactivate = member.isArchived ? { isArchived: false } : {};
  if (
    Object.keys(reactivate).length > 0 ||
    member.firstName !== m.firstName ||
    member.lastName !== m.lastName ||
    // Account type names compare without letter case (an org may answer "viewer" for "Viewer").
    member.memberType.toLowerCase() !== memberType.toLowerCase()
  ) {
    member = await client.updateMember(member.memberId, {
      firstName: m.firstName,
      lastName: m.lastName,
      memberType,
      ...reactivate,
    });
  }
  const memberId = member.memberId;
  for (const team of m.teams ?? []) {
    const teamId = await ensureTeam(client, team);
    const current = await client.getTeamMembers(teamId);
    if (!current.some((x) => x.userId === memberId)) {
      await client.updateTeamMembers(teamId, { add: [memberId] });
    }
  }
  // Leave the portal's teams this person no longer sees; teams the portal does not own stay.
  const wanted = new Set(m.teams ?? []);
  for (const team of m.managedTeams ?? []) {
    if (wanted.has(team)) continue;
    const existing = await findTeam(client, team);
    if (!existing) continue;
    const current = await client.getTeamMembers(existing.teamId);
    if (current.some((x) => x.userId === memberId)) {
      await client.updateTeamMembers(existing.teamId, { remove: [memberId] });
    }
  }
}

/** The BI service's workbook for a catalogue name `<Name>-<workbookUrlId>`, by its URL id. */
async function findWorkbook(client: SigmaRestClient, workbookName: string) {
  const urlId = urlIdOf(workbookName);
  return (await client.listWorkbooks()).find((w) => w.workbookUrlId === urlId && !w.isArchived);
}

async function shareWorkbook(client: SigmaRestClient, workbookName: string, teamName: string) {
  // The team first: embeds name it in their claims, and Sigma refuses a team that does not exist.
  const teamId = await ensureTeam(client, teamName);
  const workbook = await findWorkbook(client, workbookName);
  if (!workbook) {
    throw new Refusal(
      `No workbook in the BI service has the URL id ${urlIdOf(workbookName)} (catalogue name ${workbookName}). Check the name in the catalogue against the workbook's URL in Sigma, then Retry.`,
    );
  }
  // A workbook's id is its document (inode) id. Any grant to the team already gives at least view.
  const grants = await client.listGrants({ inodeId: workbook.workbookId });
  if (grants.some((g) => g.teamId === teamId)) return;
  await client.createGrant({ grantee: { teamId }, permission: "view", inodeId: workbook.workbookId });
}

/**
 * Removes the team's grants on the workbook, unless the catalogue still shares that workbook (the same URL
 * id, under another name) with that team. Nothing to do when the workbook or the team is gone.
 */
async function unshareWorkbook({ client, db }: ProvisioningOptions, workbookName: string, teamName: string) {
  const urlId = urlIdOf(workbookName);
  const stillShared = await db
    .select({ id: workbooks.id })
    .from(workbooks)
    .where(and(eq(workbooks.teamName, teamName), like(workbooks.workbookName, `%-${urlId}`)))
    .limit(1);
  if (stillShared.length > 0) return;
  const [workbook, team] = await Promise.all([
    findWorkbook(client, workbookName),
    findTeam(client, teamName),
  ]);
  if (!workbook || !team) return;
  const grants = await client.listGrants({ inodeId: workbook.workbookId });
  for (const grant of grants.filter((g) => g.teamId === team.teamId)) await client.deleteGrant(grant.grantId);
}

/** Makes the BI service follow one outbox row, by its kind. */
export async function deliver(options: ProvisioningOptions, row: OutboxRow): Promise<void> {
  const { client, db } = options;
  const kind = row.kind as OutboxKind;
  switch (kind) {
    case "team.upsert": {
      await ensureTeam(client, payloadOf(row, kind).name);
      return;
    }
    case "workbook.share": {
      const { workbookName, teamName } = payloadOf(row, kind);
      await shareWorkbook(client, workbookName, teamName);
      return;
    }
    case "workbook.unshare": {
      const { workbookName, teamName } = payloadOf(row, kind);
      await unshareWorkbook(options, workbookName, teamName);
      return;
    }
    case "member.deactivate": {
      const member = await client.findMemberByEmail(payloadOf(row, kind).email);
      if (!member) return;
      await linkMember(db, member);
      // Someone who signs in to Sigma directly is never deactivated by the portal; an archived member
      // needs nothing more (Sigma's DELETE archives).
      if (!isManagedInSigma(member) && !member.isArchived) await client.deleteMember(member.memberId);
      return;
    }
    case "member.upsert": {
      await upsertMember(options, memberState(payloadOf(row, kind)));
      return;
    }
    case "member.link": {
      const member = await client.findMemberByEmail(payloadOf(row, kind).email);
      if (member) await linkMember(db, member);
      return;
    }
    default:
      throw new PayloadError(`Unknown kind of BI service change: ${row.kind}.`);
  }
}
