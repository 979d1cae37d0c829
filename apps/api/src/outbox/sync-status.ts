import type { TSyncItem, TSyncListQuery, TSyncOverview, ZSyncListQuerySchema } from "@portal/contracts";
import type { SigmaRestClient } from "@portal/sigma";
import { sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { recordAudit } from "../audit/audit.ts";
import { resetTwoFactor } from "../auth/two-factor.ts";
import type { Database, Transaction } from "../db/client.ts";
import type { PersonKind } from "../people/kinds.ts";
import { findPerson } from "../people/records.ts";
import { notFound } from "../lib/errors.ts";
import { memberUpsertPayload } from "../people/member-sync.ts";
import { auditActor, type Actor } from "../audit/actor.ts";
import { rows } from "../db/rows.ts";

/**
 * Puts failed BI changes (`which`) back in the queue, due at once and in their original order. A failed
 * member update of someone who still exists is re-sent with their state as it is now (it always carries
 * the complete state), so fixing the cause (a workbook's team, a name) and retrying is enough. Rows of
 * deleted people and team changes go again as they were. Answers the ids re-queued.
 */
async function requeue(tx: Transaction, which: SQL): Promise<string[]> {
  const failedUpserts = rows<{ user_id: string }>(
    await tx.execute(sql`
      select distinct user_id from provisioning_requests
       where ${which} and kind = 'member.upsert' and user_id is not null`),
  );
  for (const { user_id: userId } of failedUpserts) {
    const current = await memberUpsertPayload(tx, userId);
    if (!current) continue;
    await tx.execute(sql`
      update provisioning_requests set payload = ${JSON.stringify(current)}::jsonb
       where ${which} and kind = 'member.upsert' and user_id = ${userId}`);
  }
  const requeued = rows<{ id: string }>(
    await tx.execute(sql`
      update provisioning_requests
         set status = 'pending', next_attempt_at = now(), updated_at = now()
       where ${which}
      returning id`),
  );
  return requeued.map((r) => r.id);
}

/** A client's or employee's failed BI changes, back in the queue (Retry on the lists and edit screens). */
export async function retryFailedSync(
  db: Database,
  kind: PersonKind,
  personId: number,
  actor: Actor,
): Promise<number> {
  return db.transaction(async (tx) => {
    const { userId } = await findPerson(tx, kind, personId);
    const requeued = await requeue(tx, sql`status = 'failed' and user_id = ${userId}`);
    await recordAudit(tx, {
      action: `${kind.kind}.sync_retried`,
      outcome: "success",
      targetType: kind.kind,
      targetId: String(personId),
      details: { requeued: requeued.length },
      ...auditActor(actor),
    });
    return requeued.length;
  });
}

const ISO = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const FILTERS: Record<TSyncListQuery["status"] & string, SQL> = {
  all: sql`p.status <> 'done'`,
  failed: sql`p.status = 'failed'`,
  waiting: sql`p.status = 'pending' and p.waiting_since is not null`,
};

/**
 * The changes not yet delivered to the BI service, or refused by it, oldest first (the queue's order):
 * a page of them and how many there are. Both use the index of undelivered rows, so a page stays fast
 * however long the history of delivered ones.
 */
export async function listSync(db: Database, query: z.output<typeof ZSyncListQuerySchema>) {
  const where = FILTERS[query.status];
  const found = rows<Record<string, unknown>>(
    await db.execute(sql`
      select p.id, p.kind, p.subject, p.payload, p.status, p.attempts::int as attempts, p.last_error,
             ${ISO(sql`p.next_attempt_at`)} as next_attempt_at, ${ISO(sql`p.waiting_since`)} as waiting_since,
             ${ISO(sql`p.created_at`)} as created_at,
             coalesce(p.lease_expires_at > now(), false) as in_flight,
             c.c_id, c.client_id, c.first_name as c_first, c.last_name as c_last,
             e.e_id, e.employee_id, e.first_name as e_first, e.last_name as e_last
        from provisioning_requests p
        left join clients c on c.user_id = p.user_id
        left join employees e on e.user_id = p.user_id
       where ${where}
       order by p.seq
       limit ${query.limit} offset ${query.offset}`),
  );
  const [count] = rows<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from provisioning_requests p where ${where}`),
  );
  const items: TSyncItem[] = found.map((r) => ({
    id: r.id as string,
    kind: r.kind as TSyncItem["kind"],
    ...subjectOfRow(r.kind as string, r.subject as string, r.payload),
    person:
      r.c_id != null
        ? {
            type: "client",
            id: r.c_id as number,
            business_id: r.client_id as string,
            name: `${r.c_first} ${r.c_last}`,
          }
        : r.e_id != null
          ? {
              type: "employee",
              id: r.e_id as number,
              business_id: r.employee_id as string,
              name: `${r.e_first} ${r.e_last}`,
            }
          : null,
    status: r.status as TSyncItem["status"],
    attempts: r.attempts as number,
    last_error: (r.last_error as string | null) ?? null,
    next_attempt_at: r.next_attempt_at as string,
    waiting_since: (r.waiting_since as string | null) ?? null,
    in_flight: r.in_flight as boolean,
    created_at: r.created_at as string,
  }));
  return { items, total: count!.n };
}

/** What a row is about, in the admin's words: a member's email, a team, or a workbook and its team. */
function subjectOfRow(
  kind: string,
  subject: string,
  payload: unknown,
): Pick<TSyncItem, "subject" | "team_name"> {
  if (kind === "workbook.share" || kind === "workbook.unshare") {
    const p = payload as { workbookName?: unknown; teamName?: unknown };
    return {
      subject: typeof p.workbookName === "string" ? p.workbookName : subject,
      team_name: typeof p.teamName === "string" ? p.teamName : null,
    };
  }
  return { subject: subject.replace(/^team:/, ""), team_name: null };
}

/** The queue at a glance, and whether the BI service answers right now (one cheap call). */
export async function syncOverview(db: Database, client: SigmaRestClient): Promise<TSyncOverview> {
  const [counts] = rows<{ pending: number; waiting: number; failed: number; waiting_since: string | null }>(
    await db.execute(sql`
      select count(*) filter (where status = 'pending')::int as pending,
             count(*) filter (where status = 'pending' and waiting_since is not null)::int as waiting,
             count(*) filter (where status = 'failed')::int as failed,
             ${ISO(sql`min(waiting_since)`)} as waiting_since
        from provisioning_requests where status <> 'done'`),
  );
  const managed = rows<{ type: "client" | "employee"; business_id: string; name: string; email: string }>(
    await db.execute(sql`
      select 'client' as type, c.client_id as business_id, c.first_name || ' ' || c.last_name as name, c.email
        from clients c join bi_members b on b.email = lower(c.email) where b.user_kind <> 'embed'
      union all
      select 'employee', e.employee_id, e.first_name || ' ' || e.last_name, e.email
        from employees e join bi_members b on b.email = lower(e.email) where b.user_kind <> 'embed'
      order by name limit 200`),
  );
  const reachable = await client.ping();
  return { reachable, checked_at: new Date().toISOString(), ...counts!, managed_in_sigma: managed };
}

/**
 * Retry on /admin/sync: one change (failed, or waiting out a backoff) goes again at once. A delivered
 * or unknown change is a 404 in the admin's words.
 */
export async function retrySyncItem(db: Database, id: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const requeued = await requeue(tx, sql`id = ${id} and status <> 'done'`);
    if (requeued.length === 0) throw notFound("This change is not waiting to be sent any more.");
    await recordAudit(tx, {
      action: "sync.retried",
      outcome: "success",
      targetType: "sync",
      targetId: id,
      ...auditActor(actor),
    });
  });
}

/** Retry all failed on /admin/sync. Answers how many were re-queued. */
export async function retryAllFailedSync(db: Database, actor: Actor): Promise<number> {
  return db.transaction(async (tx) => {
    const requeued = await requeue(tx, sql`status = 'failed'`);
    await recordAudit(tx, {
      action: "sync.retried_all",
      outcome: "success",
      targetType: "sync",
      details: { requeued: requeued.length },
      ...auditActor(actor),
    });
    return requeued.length;
  });
}

/**
 * Removes a client's or employee's two-step verification after they lost their authenticator and backup
 * codes (decision 006): their sessions end and, where their role requires it, they set it up again at the
 * next sign-in. Answers whether they had it.
 */
export async function resetPersonTwoFactor(
  db: Database,
  kind: PersonKind,
  personId: number,
  actor: Actor,
): Promise<boolean> {
  return resetTwoFactor(db, (await findPerson(db, kind, personId)).userId, actor);
}
