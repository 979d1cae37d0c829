import { sql } from "drizzle-orm";
import { rows } from "../db/rows.ts";
import type { Executor } from "../db/client.ts";

/** A workbook as the identity functions carry it. */
export interface IdentityWorkbook {
  id: number;
  workbookName: string;
  teamName: string;
}

/** A delegation that counts now: accepted, not ended, of a client whose sign-in is not disabled. */
export interface ActiveDelegation {
  id: number;
  cId: number;
  /** The client's business id: the row-security value the delegate's embed carries. */
  clientId: string;
  clientName: string;
  clientUserId: string;
  clientEmail: string;
  expiresAt: Date | null;
  /** Shared and still assigned to the client, in catalogue order. */
  workbooks: IdentityWorkbook[];
}

interface DelegationRow {
  id: number;
  c_id: number;
  client_id: string;
  first_name: string;
  last_name: string;
  client_user_id: string;
  client_email: string;
  expires_at: string | Date | null;
  workbooks: IdentityWorkbook[] | null;
}

/**
 * The delegations of a person that count now (decision 020): accepted, not past `expires_at` by the
 * database's clock, of a client still there and not disabled. A delegation's workbooks are those it shares
 * (all, or the chosen ones) that are still assigned to the client, so a workbook the firm takes away from the
 * client is gone for the delegate too.
 */
export async function activeDelegations(db: Executor, userId: string): Promise<ActiveDelegation[]> {
  const found = rows<DelegationRow>(
    await db.execute(sql`
      select d.id, d.c_id, c.client_id, c.first_name, c.last_name, c.user_id as client_user_id,
             c.email as client_email, d.expires_at,
             (select json_agg(json_build_object('id', w.id, 'workbookName', w.workbook_name, 'teamName', w.team_name)
                              order by w.id)
                from client_workbooks cw join workbooks w on w.id = cw.workbook_id
               where cw.c_id = d.c_id
                 and (d.all_workbooks or exists (select 1 from delegation_workbooks dw
                                                  where dw.delegation_id = d.id and dw.workbook_id = w.id))
             ) as workbooks
        from delegations d
        join clients c on c.c_id = d.c_id
        join users u on u.id = c.user_id
       where d.user_id = ${userId}
         and d.accepted_at is not null
         and (d.expires_at is null or d.expires_at > now())
         and not coalesce(u.banned, false)
       order by c.last_name, c.first_name, c.c_id`),
  );
  return found.map((row) => ({
    id: row.id,
    cId: row.c_id,
    clientId: row.client_id,
    clientName: `${row.first_name} ${row.last_name}`,
    clientUserId: row.client_user_id,
    clientEmail: row.client_email,
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    workbooks: row.workbooks ?? [],
  }));
}

/**
 * The business client ids a client's own embed carries with a household's combined view: every member's,
 * their own included, in order; empty when they are in no household or its combined view is off.
 */
export async function householdClientIds(db: Executor, cId: number): Promise<string[]> {
  const found = rows<{ client_id: string }>(
    await db.execute(sql`
      select c.client_id
        from household_members mine
        join households h on h.id = mine.household_id and h.combined_view
        join household_members hm on hm.household_id = h.id
        join clients c on c.c_id = hm.c_id
       where mine.c_id = ${cId}
       order by c.client_id`),
  );
  return found.map((row) => row.client_id);
}

/** Every team of `lists`, once, sorted: a person's BI member belongs to all they may view. */
export function teamsOf(...lists: IdentityWorkbook[][]): string[] {
  return [...new Set(lists.flat().map((w) => w.teamName))].sort();
}
