import { randomUUID } from "node:crypto";
import {
  loadOrCreateLocalSigmaCredentials,
  SigmaApiError,
  SigmaRestClient,
  SigmaShapeError,
  type TSigmaMember,
} from "@portal/sigma";
import { and, eq, like } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { biMembers, workbooks } from "../db/schema.ts";
import {
  anyUnreachableWaiting,
  claimDue,
  expediteUnreachable,
  releaseClaims,
  settleDelivered,
  settleFailed,
  UNREACHABLE,
  type OutboxRow,
} from "../outbox/queue.ts";
import {
  urlIdOf,
  ZOutboxPayloads,
  type MemberState,
  type OutboxKind,
  type OutboxPayload,
} from "../outbox/requests.ts";

/** Creates the REST client for the configured BI service (credentials from env or DATA_DIR). */
export async function createSigmaRestClient(config: AppConfig): Promise<SigmaRestClient> {
  let credentials: { clientId: string; clientSecret: string };
  if (config.sigma.api) {
    credentials = config.sigma.api;
  } else {
    const local = await loadOrCreateLocalSigmaCredentials(config.dataDir);
    credentials = { clientId: local.apiClientId, clientSecret: local.apiClientSecret };
  }
  return new SigmaRestClient({ apiBaseUrl: config.sigma.apiBaseUrl, ...credentials });
}

/**
 * Retried for as long as it takes: the service unreachable or timing out, 408, 429 and 5xx. Only a
 * definite refusal (another 4xx) fails a row; a 409 reaches here only when it could not be adopted.
 */
export function isTransient(error: unknown): boolean {
  // 401 after the client's fresh token: the credentials were rotated or revoked; the change waits for the
  // operator's fix (shown on /admin/sync) and goes by itself once they work again.
  if (error instanceof SigmaApiError)
    return error.status === 401 || error.status === 408 || error.status === 429 || error.status >= 500;
  // The BI service's answer does not fit Sigma's published shape, a malformed row, a refusal only a
  // person can fix: a definite problem for the admin to see and fix, then Retry.
  return !(error instanceof PayloadError || error instanceof SigmaShapeError || error instanceof Refusal);
}

/** A row whose payload does not fit its kind: the portal's own fault, never worth retrying. */
class PayloadError extends Error {}

function unreachable(error: unknown): boolean {
  if (error instanceof SigmaApiError) return false;
  const name = (error as { name?: string }).name;
  const code = String((error as { code?: unknown }).code ?? "");
  return (
    error instanceof TypeError ||
    name === "TimeoutError" ||
    name === "AbortError" ||
    /^(E[A-Z]+|UND_ERR)/.test(code)
  );
}

function describe(error: unknown): string {
  if (error instanceof SigmaApiError) return error.message;
  if (unreachable(error)) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    return `${UNREACHABLE} (${cause instanceof Error ? cause.message : String(cause)}).`;
  }
  return error instanceof Error ? error.message : String(error);
}

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

/** What one delivery did: delivered, retried later, failed for good, or its lease was lost meanwhile. */
export type DeliveryOutcome = "delivered" | "waiting" | "failed" | "lost";

/** Delivers one claimed row and settles it. */
export async function deliverClaimed(
  options: ProvisioningOptions,
  row: OutboxRow,
  owner: string,
): Promise<DeliveryOutcome> {
  const { db, log } = options;
  try {
    await deliver(options, row);
  } catch (error) {
    const transient = isTransient(error);
    const settled = await settleFailed(db, row, owner, {
      transient,
      error: describe(error),
      baseDelayMs: options.baseDelayMs ?? 5_000,
      ...(options.maxDelayMs !== undefined ? { maxDelayMs: options.maxDelayMs } : {}),
    });
    log?.warn(
      { requestId: row.id, kind: row.kind, attempts: row.attempts, transient, err: describe(error) },
      transient ? "BI service change will be retried" : "BI service refused a change",
    );
    if (!settled) return "lost";
    return transient ? "waiting" : "failed";
  }
  if (!(await settleDelivered(db, row, owner))) {
    log?.warn({ requestId: row.id, kind: row.kind }, "a delivered change's claim had expired");
    return "lost";
  }
  return "delivered";
}

/**
 * Claims and delivers due rows one at a time until none is due or `limit` were tried, each at most once.
 * Answers how many were delivered. Tests and the worker use it; any number of callers may run at once, on any instance.
 */
export async function deliverDueRequests(options: ProvisioningOptions, limit = 20): Promise<number> {
  const owner = options.owner ?? workerName();
  let delivered = 0;
  const tried: string[] = [];
  while (tried.length < limit) {
    const [row] = await claimDue(options.db, owner, options.leaseMs ?? DEFAULT_LEASE_MS, 1, tried);
    if (!row) break;
    tried.push(row.id);
    if ((await deliverClaimed(options, row, owner)) === "delivered") delivered += 1;
  }
  return delivered;
}

const DEFAULT_LEASE_MS = 60_000;

/** A claim holder's name: the process (so an operator can tell which instance holds a row) and a nonce. */
const workerName = () => `worker-${process.pid}-${randomUUID().slice(0, 8)}`;

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

/**
 * Something only a person can fix: a workbook of the catalogue that is not in the BI service (fix the name,
 * or publish it), a member deactivated by the firm's identity provider.
 */
class Refusal extends Error {}

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

async function deliver(options: ProvisioningOptions, row: OutboxRow): Promise<void> {
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

export interface WorkerOptions extends ProvisioningOptions {
  /** How often an idle worker looks for due rows. */
  intervalMs?: number;
  /** While rows wait on an unreachable service, how often it is probed. */
  probeMs?: number;
  /** Rows delivered at once by this instance (each by its own loop). */
  concurrency?: number;
}

/**
 * Runs delivery on this instance until stopped; failures of one round never stop it. Several loops
 * claim rows independently (so do other instances). While rows wait on an unreachable BI service it is
 * probed every `probeMs`; as soon as it answers, those rows are due at once. `stop()` stops claiming,
 * lets deliveries in flight finish for up to `graceMs`, and gives back every claim still held.
 */
export function startProvisioningWorker(options: WorkerOptions) {
  const owner = options.owner ?? workerName();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const intervalMs = options.intervalMs ?? 1_000;
  let stopped = false;
  let wake: (() => void) | undefined;
  let lastProbe = 0;

  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, intervalMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const probe = async () => {
    if (Date.now() - lastProbe < (options.probeMs ?? 5_000)) return;
    lastProbe = Date.now();
    if (!(await anyUnreachableWaiting(options.db))) return;
    if (await options.client.ping()) {
      const made = await expediteUnreachable(options.db);
      options.log?.info({ rows: made }, "the BI service answers again: waiting changes are due now");
    }
  };

  const loop = async (index: number) => {
    while (!stopped) {
      try {
        if (index === 0) await probe();
        const [row] = stopped ? [] : await claimDue(options.db, owner, leaseMs);
        if (row) {
          const outcome = await deliverClaimed({ ...options, owner }, row, owner);
          // A delivery went through: whatever waited on an outage can go now.
          if (outcome === "delivered" && row.waitingSince) await expediteUnreachable(options.db);
          continue;
        }
      } catch (error) {
        options.log?.error({ err: error }, "BI service delivery round failed");
      }
      if (!stopped) await idle();
    }
  };
  const loops = Array.from({ length: Math.max(1, options.concurrency ?? 2) }, (_, i) => loop(i));

  return {
    owner,
    async stop(graceMs = 5_000) {
      stopped = true;
      wake?.();
      const finished = Promise.all(loops);
      await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      const released = await releaseClaims(options.db, owner).catch(() => 0);
      if (released > 0) options.log?.info({ released }, "gave back BI service changes still claimed");
    },
  };
}
