import { loadOrCreateLocalSigmaCredentials, SigmaApiError, SigmaRestClient } from "@portal/sigma";
import type { TPrivilege } from "@portal/contracts";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { rows } from "../admin/shared.ts";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { provisioningRequests } from "../db/schema.ts";

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

interface MemberUpsert {
  email: string;
  firstName: string;
  lastName: string;
  privilege: TPrivilege;
  /** When present, the complete list of teams the member must belong to. */
  teams?: string[];
  /** The teams the portal owns: a membership in one of these that is not in `teams` is removed. */
  managedTeams?: string[];
}

type Request = typeof provisioningRequests.$inferSelect;

const UNREACHABLE = "The BI service could not be reached";

/** Retry after 429, 5xx and network failures; any other answer is permanent and shown to the admin. */
function isTransient(error: unknown): boolean {
  if (error instanceof SigmaApiError) return error.status === 429 || error.status >= 500;
  return error instanceof TypeError || (error as { code?: string }).code === "ECONNREFUSED";
}

function describe(error: unknown): string {
  if (error instanceof SigmaApiError) return error.message;
  if (error instanceof TypeError) return `${UNREACHABLE} (${String(error.cause ?? error.message)}).`;
  return error instanceof Error ? error.message : String(error);
}

export interface ProvisioningOptions {
  db: Database;
  client: SigmaRestClient;
  config: AppConfig;
  log?: FastifyBaseLogger;
  /** First retry delay; doubles per attempt up to one hour. */
  baseDelayMs?: number;
  /** Transient failures tolerated before a request is marked failed. */
  maxAttempts?: number;
}

/**
 * Delivers due provisioning requests to the BI service's REST API, oldest first. A person's requests
 * are sent strictly in order: one waits while an earlier one for the same person is pending or failed.
 * Every step looks up before it creates, so a retried request never makes a duplicate.
 */
export async function deliverDueRequests(options: ProvisioningOptions, limit = 20): Promise<number> {
  const { db, log } = options;
  const due = rows<{ id: string }>(
    await db.execute(sql`
      select p.id from provisioning_requests p
      where p.status = 'pending' and p.next_attempt_at <= now()
        and not exists (
          select 1 from provisioning_requests q
          where p.user_id is not null and q.user_id = p.user_id
            and q.status in ('pending', 'failed') and q.created_at < p.created_at)
      order by p.created_at, p.id
      limit ${limit}`),
  );
  let delivered = 0;
  for (const { id } of due) {
    const [request] = await db.select().from(provisioningRequests).where(eq(provisioningRequests.id, id));
    if (!request || request.status !== "pending") continue;
    try {
      await deliver(options, request);
      await db
        .update(provisioningRequests)
        .set({ status: "done", attempts: request.attempts + 1, lastError: null })
        .where(eq(provisioningRequests.id, id));
      delivered += 1;
    } catch (error) {
      const attempts = request.attempts + 1;
      const transient = isTransient(error) && attempts < (options.maxAttempts ?? 10);
      const delay = Math.min((options.baseDelayMs ?? 5_000) * 2 ** (attempts - 1), 3_600_000);
      await db
        .update(provisioningRequests)
        .set({
          status: transient ? "pending" : "failed",
          attempts,
          lastError: describe(error).slice(0, 1000),
          nextAttemptAt: new Date(Date.now() + (transient ? delay : 0)),
        })
        .where(eq(provisioningRequests.id, id));
      log?.warn(
        { requestId: id, kind: request.kind, attempts, transient, err: describe(error) },
        "provisioning failed",
      );
      // Later requests of this person now wait; others can still go ahead.
    }
  }
  return delivered;
}

/**
 * The live (not archived) team with exactly this name, if the BI service has one. A team whose name
 * differs only in letter case is not taken for it: where the service treats names as distinct it is
 * someone else's team, and its members could see other workbooks. The portal allows one spelling of a
 * team across its workbooks (DEVIATIONS D31); a clash with a team made outside it fails with the reason.
 */
async function findTeam(client: SigmaRestClient, name: string) {
  return (await client.listTeams(name)).find((t) => t.name === name && !t.isArchived);
}

async function ensureTeam(client: SigmaRestClient, name: string): Promise<string> {
  const existing = await findTeam(client, name);
  if (existing) return existing.teamId;
  return (await client.createTeam({ name })).teamId;
}

async function deliver({ client, config }: ProvisioningOptions, request: Request): Promise<void> {
  const payload = request.payload as Record<string, unknown>;
  switch (request.kind) {
    case "team.upsert": {
      await ensureTeam(client, String(payload.name));
      return;
    }
    case "member.deactivate": {
      const member = await client.findMemberByEmail(String(payload.email));
      // Sigma deactivates on DELETE (isInactive); an already inactive or archived member needs nothing.
      if (member && !member.isInactive && !member.isArchived) await client.deleteMember(member.memberId);
      return;
    }
    case "member.upsert": {
      const m = payload as unknown as MemberUpsert & { role?: string; name?: string };
      // Self sign-up (editor/author) carries a name and role instead of the back office fields.
      const privilege: TPrivilege = m.privilege ?? "View";
      const [firstName = "", ...rest] = (m.firstName ? `${m.firstName} ${m.lastName}` : (m.name ?? "")).split(
        " ",
      );
      const lastName = m.firstName ? m.lastName : rest.join(" ");
      const memberType = config.sigma.memberTypes[privilege];
      let member = await client.findMemberByEmail(m.email);
      if (!member) {
        try {
          member = await client.createMember({
            email: m.email,
            firstName,
            lastName,
            memberType,
            userKind: "embed",
          });
        } catch (error) {
          // Created by an earlier attempt whose answer was lost: look it up again.
          if (!(error instanceof SigmaApiError && error.status === 409)) throw error;
          member = await client.findMemberByEmail(m.email);
          if (!member) throw error;
        }
      }
      if (
        member.isArchived ||
        member.firstName !== firstName ||
        member.lastName !== lastName ||
        member.memberType !== memberType
      ) {
        member = await client.updateMember(member.memberId, {
          firstName,
          lastName,
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
      throw new Error(`Unknown provisioning request kind ${request.kind}`);
  }
}

/**
 * Requests waiting (in backoff) only because the BI service could not be reached are made due now:
 * all of them once the service answered again, or just the oldest as a probe. So after an outage, or
 * while the built-in analytics server is still starting, nobody waits out a long backoff.
 */
export async function expediteAfterOutage(db: Database, which: "all" | "oldest"): Promise<number> {
  const waiting = sql`status = 'pending' and next_attempt_at > now() and last_error like ${`${UNREACHABLE}%`}`;
  const target =
    which === "all"
      ? waiting
      : sql`id = (select id from provisioning_requests where ${waiting} order by created_at, id limit 1)`;
  const made = await db.execute(
    sql`update provisioning_requests set next_attempt_at = now() where ${target} returning id`,
  );
  return rows(made).length;
}

/**
 * Runs delivery every `intervalMs` until stopped; failures of one round never stop the loop. While
 * requests wait on an unreachable service, the oldest is tried every `probeMs`; when one goes through,
 * the rest follow at once.
 */
export function startProvisioningWorker(
  options: ProvisioningOptions & { intervalMs?: number; probeMs?: number },
) {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let lastProbe = Date.now();
  const round = async () => {
    const delivered = await deliverDueRequests(options);
    if (delivered > 0) {
      await expediteAfterOutage(options.db, "all");
    } else if (Date.now() - lastProbe >= (options.probeMs ?? 5_000)) {
      lastProbe = Date.now();
      await expediteAfterOutage(options.db, "oldest");
    }
  };
  const tick = () => {
    if (stopped) return;
    running = round()
      .catch((error: unknown) => options.log?.error({ err: error }, "provisioning round failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.intervalMs ?? 2_000);
      });
  };
  let timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
