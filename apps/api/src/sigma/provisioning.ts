import { randomUUID } from "node:crypto";
import { loadOrCreateLocalSigmaCredentials, SigmaApiError, SigmaRestClient } from "@portal/sigma";
import type { FastifyBaseLogger } from "fastify";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
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
  if (error instanceof SigmaApiError)
    return error.status === 408 || error.status === 429 || error.status >= 500;
  return !(error instanceof PayloadError);
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
 * The live (not archived) team with exactly this name, if the BI service has one. A team whose name
 * differs only in letter case is not taken for it: where the service treats names as distinct it is
 * someone else's team, and its members could see other workbooks. The portal allows one spelling of a
 * team across its workbooks (DEVIATIONS D31); a clash with a team made outside it fails with the reason.
 */
async function findTeam(client: SigmaRestClient, name: string) {
  return (await client.listTeams(name)).find((t) => t.name === name && !t.isArchived);
}

/** A 409 from a create: the thing exists already (an earlier attempt, another portal instance). */
const isConflict = (error: unknown) => error instanceof SigmaApiError && error.status === 409;

/**
 * The team's id, creating it when it does not exist. A 409 on create adopts the team that now exists
 * under exactly this name; a 409 for a team of another spelling (D31) cannot be adopted and is a refusal.
 */
async function ensureTeam(client: SigmaRestClient, name: string): Promise<string> {
  const existing = await findTeam(client, name);
  if (existing) return existing.teamId;
  try {
    return (await client.createTeam({ name })).teamId;
  } catch (error) {
    if (!isConflict(error)) throw error;
    const adopted = await findTeam(client, name);
    if (adopted) return adopted.teamId;
    throw error;
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

async function deliver({ client, config }: ProvisioningOptions, row: OutboxRow): Promise<void> {
  const kind = row.kind as OutboxKind;
  switch (kind) {
    case "team.upsert": {
      await ensureTeam(client, payloadOf(row, kind).name);
      return;
    }
    case "member.deactivate": {
      const member = await client.findMemberByEmail(payloadOf(row, kind).email);
      // Sigma deactivates on DELETE (isInactive); an already inactive or archived member needs nothing.
      if (member && !member.isInactive && !member.isArchived) await client.deleteMember(member.memberId);
      return;
    }
    case "member.upsert": {
      const m = memberState(payloadOf(row, kind));
      const memberType = config.sigma.memberTypes[m.privilege];
      let member = await client.findMemberByEmail(m.email);
      if (!member) {
        try {
          member = await client.createMember({
            email: m.email,
            firstName: m.firstName,
            lastName: m.lastName,
            memberType,
            userKind: "embed",
          });
        } catch (error) {
          // Made meanwhile (an earlier attempt whose answer was lost, another instance): adopt it.
          if (!isConflict(error)) throw error;
          member = await client.findMemberByEmail(m.email);
          if (!member) throw error;
        }
      }
      // A deactivated or archived member (a person deleted and added again) is reactivated.
      if (
        member.isArchived ||
        member.isInactive ||
        member.firstName !== m.firstName ||
        member.lastName !== m.lastName ||
        member.memberType !== memberType
      ) {
        member = await client.updateMember(member.memberId, {
          firstName: m.firstName,
          lastName: m.lastName,
          memberType,
          isArchived: false,
        });
      }
      for (const team of m.teams ?? []) {
        const teamId = await ensureTeam(client, team);
        const current = await client.listTeamMembers(teamId);
        if (!current.some((x) => x.memberId === member.memberId)) {
          await client.updateTeamMembers(teamId, { add: [member.memberId] });
        }
      }
      // Leave the portal's teams this person no longer sees; teams the portal does not own stay.
      const wanted = new Set(m.teams ?? []);
      for (const team of m.managedTeams ?? []) {
        if (wanted.has(team)) continue;
        const existing = await findTeam(client, team);
        if (!existing) continue;
        const current = await client.listTeamMembers(existing.teamId);
        if (current.some((x) => x.memberId === member.memberId)) {
          await client.updateTeamMembers(existing.teamId, { remove: [member.memberId] });
        }
      }
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
